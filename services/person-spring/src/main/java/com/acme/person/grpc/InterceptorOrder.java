package com.acme.person.grpc;

/** The order of the service's interceptors: lower runs first, on the way in. */
final class InterceptorOrder {
  private InterceptorOrder() {}

  /** Names the contracts version on every answer: outermost, so no answer goes without it. */
  static final int CONTRACTS_VERSION = 5;
  /** Times the whole call and its encoding (metrics.Phases): outermost but one, so it sees all of it. */
  static final int PHASE_TIMING = 10;
  /** Decodes request messages: it must see the bytes before anything else reads a message. */
  static final int DECODING = 50;
  /** Moves calls that might wait off the transport threads: before anything that waits. */
  static final int OFFLOADING = 75;
  static final int AUTH = 100;
  static final int VALIDATION = 200;
}
