package com.acme.bench;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Sends n messages on a client stream as fast as the transport takes them and no faster
 * (isReady/onReadyHandler), so a long stream never buffers itself out of memory; the future
 * completes with the call's one answer, or its error.
 */
final class StreamFeeder {
  private StreamFeeder() {}

  static <Req, Resp> CompletableFuture<Resp> feed(
      Function<StreamObserver<Resp>, StreamObserver<Req>> start, int n, IntFunction<Req> message) {
    CompletableFuture<Resp> answer = new CompletableFuture<>();
    start.apply(
        new ClientResponseObserver<Req, Resp>() {
          private int sent;
          private boolean done;

          @Override
          public void beforeStart(ClientCallStreamObserver<Req> requests) {
            requests.setOnReadyHandler(
                () -> {
                  while (!done && requests.isReady()) {
                    if (sent == n) {
                      done = true;
                      requests.onCompleted();
                      return;
                    }
                    requests.onNext(message.apply(sent++));
                  }
                });
          }

          @Override
          public void onNext(Resp value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.completeExceptionally(t);
          }

          @Override
          public void onCompleted() {}
        });
    return answer;
  }
}
