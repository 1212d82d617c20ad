package com.acme.person.domain;

/** A request_id was used before, for a different person (or a stream of other people). */
public class RequestIdConflictException extends RuntimeException {
  public RequestIdConflictException(String requestId) {
    super("request_id " + requestId + " was already used for a different request");
  }
}
