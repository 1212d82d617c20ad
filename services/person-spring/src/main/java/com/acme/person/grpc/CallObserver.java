package com.acme.person.grpc;

import com.acme.person.error.ErrorMapper;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;

/**
 * What a handler sees of its call: the usual gRPC StreamObserver of its answers, with flow
 * control (request, isReady, onReady) and the cancel and close callbacks. Answers go through
 * the call's Outbox, so a handler may answer from any thread; an error becomes its status in
 * ErrorMapper.
 */
final class CallObserver<R> extends ServerCallStreamObserver<R> {

  private final Outbox out;
  private final ServerCall<?, ?> call;
  private final ErrorMapper errors;
  private volatile Runnable onCancel;
  private volatile Runnable onClose;
  private volatile Runnable onReady;
  private volatile boolean cancelled;
  private volatile boolean autoRequest = true;

  CallObserver(Outbox out, ServerCall<?, ?> call, ErrorMapper errors) {
    this.out = out;
    this.call = call;
    this.errors = errors;
  }

  @Override
  public void onNext(R answer) {
    out.send(answer);
  }

  @Override
  public void onError(Throwable error) {
    StatusRuntimeException status = errors.toGrpc(error);
    out.close(status.getStatus(), status.getTrailers() == null ? new Metadata() : status.getTrailers());
  }

  @Override
  public void onCompleted() {
    out.close(Status.OK, new Metadata());
  }

  @Override
  public boolean isReady() {
    return out.isReady();
  }

  @Override
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public void setOnReadyHandler(Runnable onReadyHandler) {
    onReady = onReadyHandler;
  }

  @Override
  public void setOnCancelHandler(Runnable onCancelHandler) {
    onCancel = onCancelHandler;
  }

  @Override
  public void setOnCloseHandler(Runnable onCloseHandler) {
    onClose = onCloseHandler;
  }

  @Override
  public void disableAutoInboundFlowControl() {
    autoRequest = false;
  }

  @Override
  public void disableAutoRequest() {
    autoRequest = false;
  }

  @Override
  public void request(int count) {
    // Safe from any thread: grpc-java hands it to the transport's thread.
    call.request(count);
  }

  @Override
  public void setCompression(String compression) {
    throw new UnsupportedOperationException("the service does not compress its answers");
  }

  @Override
  public void setMessageCompression(boolean enable) {
    throw new UnsupportedOperationException("the service does not compress its answers");
  }

  /** Whether the boundary requests the next message after each one (the handler did not take over). */
  boolean autoRequest() {
    return autoRequest;
  }

  /** The call was cancelled or refused: at once, on the thread that learnt it. */
  void cancelled() {
    cancelled = true;
    run(onCancel);
  }

  /** The call's status was sent. */
  void closed() {
    run(onClose);
  }

  /** The handler may send again. */
  void ready() {
    run(onReady);
  }

  private static void run(Runnable callback) {
    if (callback != null) {
      callback.run();
    }
  }
}
