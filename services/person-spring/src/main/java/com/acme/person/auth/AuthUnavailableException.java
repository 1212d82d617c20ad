package com.acme.person.auth;

/** The auth service could not answer in time, so no token can be checked. */
public class AuthUnavailableException extends RuntimeException {
  public AuthUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
