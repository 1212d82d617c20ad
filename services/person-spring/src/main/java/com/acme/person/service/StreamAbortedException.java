package com.acme.person.service;

/** The client cancelled or broke a stream; whatever it sent is rolled back. */
public class StreamAbortedException extends RuntimeException {
  public StreamAbortedException(String message) {
    super(message);
  }
}
