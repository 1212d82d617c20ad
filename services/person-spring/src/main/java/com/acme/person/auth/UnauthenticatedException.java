package com.acme.person.auth;

/** The caller's token is missing, malformed, invalid or expired. */
public class UnauthenticatedException extends RuntimeException {
  public UnauthenticatedException(String message) {
    super(message, null, false, false);
  }
}
