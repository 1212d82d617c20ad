package com.acme.person.grpc;

import io.grpc.Context;
import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A ServerCall that an interceptor and a handler's worker thread may both end: sends and closes
 * are serialized, and only the first close counts. (ServerCall itself is not thread-safe.)
 *
 * <p>Nothing is sent once the call's context is cancelled either: the call is already over for
 * the client. That matters when the transport ended the call itself — a frame over the size
 * limit, say — while the service was still working on it (checking the token): the transport
 * has sent its status, the service's own would be a second set of headers on a finished
 * stream, and Netty answers that by closing the whole connection, with every other call on it.
 */
final class ClosingOnceServerCall<ReqT, RespT> extends SimpleForwardingServerCall<ReqT, RespT> {

  private final Context context = Context.current();
  private boolean closed;

  ClosingOnceServerCall(ServerCall<ReqT, RespT> delegate) {
    super(delegate);
  }

  @Override
  public synchronized void sendHeaders(Metadata headers) {
    if (isOpen()) {
      super.sendHeaders(headers);
    }
  }

  @Override
  public synchronized void sendMessage(RespT message) {
    if (isOpen()) {
      super.sendMessage(message);
    }
  }

  @Override
  public synchronized void close(Status status, Metadata trailers) {
    if (isOpen()) {
      closed = true;
      super.close(status, trailers);
    }
  }

  synchronized boolean isClosed() {
    return !isOpen();
  }

  private boolean isOpen() {
    if (!closed && context.isCancelled()) {
      closed = true;
    }
    return !closed;
  }
}
