package com.acme.person.domain;

/** A request_id was used before, for a different person. */
public class RequestIdConflictException extends RuntimeException {
  public RequestIdConflictException(String requestId) {
    super("request_id " + requestId + " was already used for a different person");
  }
}
