package com.acme.person.grpc;

/** The order of the service's interceptors: lower runs first, on the way in. */
final class InterceptorOrder {
  private InterceptorOrder() {}

  static final int AUTH = 100;
  static final int VALIDATION = 200;
}
