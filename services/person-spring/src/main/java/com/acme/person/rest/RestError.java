package com.acme.person.rest;

import java.util.List;

/**
 * The REST twin's error body: the gRPC status code's name, a message, and for
 * INVALID_ARGUMENT the violated rules (the same field paths and rule ids gRPC clients get).
 */
public record RestError(String code, String message, List<Violation> violations) {

  /** One broken buf.validate rule. */
  public record Violation(String field, String ruleId, String message) {}
}
