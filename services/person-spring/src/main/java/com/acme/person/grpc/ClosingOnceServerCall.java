package com.acme.person.grpc;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A ServerCall that an interceptor and a handler's worker thread may both end: sends and closes
 * are serialized, and only the first close counts. (ServerCall itself is not thread-safe.)
 */
final class ClosingOnceServerCall<ReqT, RespT> extends SimpleForwardingServerCall<ReqT, RespT> {

  private boolean closed;

  ClosingOnceServerCall(ServerCall<ReqT, RespT> delegate) {
    super(delegate);
  }

  @Override
  public synchronized void sendHeaders(Metadata headers) {
    if (!closed) {
      super.sendHeaders(headers);
    }
  }

  @Override
  public synchronized void sendMessage(RespT message) {
    if (!closed) {
      super.sendMessage(message);
    }
  }

  @Override
  public synchronized void close(Status status, Metadata trailers) {
    if (!closed) {
      closed = true;
      super.close(status, trailers);
    }
  }

  synchronized boolean isClosed() {
    return closed;
  }
}
