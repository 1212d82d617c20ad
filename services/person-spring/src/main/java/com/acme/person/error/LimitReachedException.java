package com.acme.person.error;

import java.time.Duration;

/**
 * The service is at one of its declared limits (person.limits): the caller is refused with
 * RESOURCE_EXHAUSTED and told, in a google.rpc.RetryInfo, when trying again makes sense.
 */
public class LimitReachedException extends RuntimeException {
  private final Duration retryAfter;

  public LimitReachedException(String message, Duration retryAfter) {
    super(message);
    this.retryAfter = retryAfter;
  }

  public Duration retryAfter() {
    return retryAfter;
  }
}
