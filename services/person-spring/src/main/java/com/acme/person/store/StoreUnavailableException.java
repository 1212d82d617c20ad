package com.acme.person.store;

/**
 * The store cannot take writes now — its folder is read-only, or it is recovering from a
 * failed write — or cannot be reached: nothing was written; retry later.
 */
public class StoreUnavailableException extends RuntimeException {
  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
