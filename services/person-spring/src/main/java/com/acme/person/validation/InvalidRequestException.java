package com.acme.person.validation;

import build.buf.validate.Violations;

/** A request broke its schema's buf.validate rules; carries the violations for the client. */
public class InvalidRequestException extends RuntimeException {

  private final transient Violations violations;

  public InvalidRequestException(String message, Violations violations) {
    super(message, null, false, false);
    this.violations = violations;
  }

  public Violations violations() {
    return violations;
  }
}
