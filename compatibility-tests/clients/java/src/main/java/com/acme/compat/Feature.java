package com.acme.compat;

/** One feature of the driver contract: returns normally on pass, throws on fail. */
@FunctionalInterface
interface Feature {
  void run() throws Exception;
}
