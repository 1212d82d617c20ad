package com.acme.compat;

/** One golden feature: returns normally on pass, throws on fail. */
@FunctionalInterface
interface Feature {
  void run() throws Exception;
}
