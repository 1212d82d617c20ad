package com.acme.person.grpc;

/**
 * A listener whose events may run later, elsewhere, in order (OffloadingInterceptor moves a
 * call to a pool). An interceptor outside it that ends the call must do so in that same order:
 * closing at once from the transport thread would overtake what is still queued — a call with
 * no token and no message would get "no request message" before the queued authentication
 * could answer UNAUTHENTICATED (the fuzz suite found that race).
 */
interface OrderedListener {

  /** Runs task after every event handed to this listener so far, where they run. */
  void inOrder(Runnable task);
}
