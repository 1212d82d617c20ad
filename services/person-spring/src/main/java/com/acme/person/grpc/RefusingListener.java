package com.acme.person.grpc;

import io.grpc.ForwardingServerCallListener.SimpleForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.StatusRuntimeException;

/**
 * The listener of an interceptor that may refuse a call after it started (an undecodable or
 * invalid message, a failure in the handler). Refusing ends the call once, with the status the
 * client gets, and tells the handler the call was cancelled — so a stream's worker rolls back
 * instead of waiting for a half-close that will not come, or committing one that arrives after
 * the refusal. From then on nothing more reaches the handler.
 */
abstract class RefusingListener<ReqT> extends SimpleForwardingServerCallListener<ReqT> {

  private final ClosingOnceServerCall<?, ?> call;
  private boolean refused;

  RefusingListener(ServerCall.Listener<ReqT> handler, ClosingOnceServerCall<?, ?> call) {
    super(handler);
    this.call = call;
  }

  /** True once this listener refused the call, or anything downstream closed it. */
  final boolean isOver() {
    return refused || call.isClosed();
  }

  final void refuse(StatusRuntimeException status) {
    if (refused) {
      return;
    }
    refused = true;
    Metadata trailers = status.getTrailers();
    Runnable close = () -> call.close(status.getStatus(), trailers == null ? new Metadata() : trailers);
    // After what the listeners inside still have queued: the first to close the call wins.
    if (delegate() instanceof OrderedListener ordered) {
      ordered.inOrder(close);
    } else {
      close.run();
    }
    super.onCancel();
  }

  @Override
  public void onHalfClose() {
    if (!refused) {
      super.onHalfClose();
    }
  }

  @Override
  public void onCancel() {
    if (!refused) {
      super.onCancel();
    }
  }

  @Override
  public void onComplete() {
    if (!refused) {
      super.onComplete();
    }
  }
}
