package com.acme.person.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.stub.StreamObserver;

/**
 * One method as the call boundary serves it: its descriptor, the handler that answers a call of
 * it (in the StreamObserver terms of grpc-java's generated AsyncService), and whether each
 * request message is checked against its buf.validate rules before the handler sees it.
 */
record Rpc<Q, R>(MethodDescriptor<Q, R> descriptor, OneRequest<Q, R> oneRequest, Requests<Q, R> requests, boolean validated) {

  /** The handler of a call that takes one request (unary, server-streaming). */
  interface OneRequest<Q, R> {
    void run(Q request, StreamObserver<R> answer);
  }

  /** The handler of a call that streams its requests: the observer they go to. */
  interface Requests<Q, R> {
    StreamObserver<Q> start(StreamObserver<R> answer);
  }

  static <Q, R> Rpc<Q, R> unary(MethodDescriptor<Q, R> descriptor, OneRequest<Q, R> handler) {
    return new Rpc<>(descriptor, handler, null, true);
  }

  static <Q, R> Rpc<Q, R> serverStreaming(MethodDescriptor<Q, R> descriptor, OneRequest<Q, R> handler) {
    return new Rpc<>(descriptor, handler, null, true);
  }

  static <Q, R> Rpc<Q, R> clientStreaming(MethodDescriptor<Q, R> descriptor, Requests<Q, R> handler) {
    return new Rpc<>(descriptor, null, handler, true);
  }

  static <Q, R> Rpc<Q, R> bidiStreaming(MethodDescriptor<Q, R> descriptor, Requests<Q, R> handler) {
    return new Rpc<>(descriptor, null, handler, true);
  }

  /** The same, its requests left for the handler to judge (SyncPeople answers each one). */
  Rpc<Q, R> unvalidated() {
    return new Rpc<>(descriptor, oneRequest, requests, false);
  }

  boolean takesOneRequest() {
    return oneRequest != null;
  }

  String name() {
    return descriptor.getBareMethodName();
  }
}
