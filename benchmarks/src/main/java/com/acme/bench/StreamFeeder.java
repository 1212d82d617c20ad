package com.acme.bench;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Sends n messages on a client stream as fast as the transport takes them and no faster
 * (isReady/onReadyHandler), so a long stream never buffers itself out of memory.
 */
final class StreamFeeder {
  private StreamFeeder() {}

  static <Req, Resp> void feed(
      Function<StreamObserver<Resp>, StreamObserver<Req>> start, int n, IntFunction<Req> message, StreamObserver<Resp> answer) {
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
            answer.onNext(value);
          }

          @Override
          public void onError(Throwable t) {
            answer.onError(t);
          }

          @Override
          public void onCompleted() {
            answer.onCompleted();
          }
        });
  }
}
