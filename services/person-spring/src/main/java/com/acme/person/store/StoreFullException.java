package com.acme.person.store;

/** The store's disk is full: nothing was written, and writes are refused until space returns. */
public class StoreFullException extends RuntimeException {
  public StoreFullException(String message, Throwable cause) {
    super(message, cause);
  }
}
