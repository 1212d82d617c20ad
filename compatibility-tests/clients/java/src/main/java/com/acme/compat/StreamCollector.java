package com.acme.compat;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Turns an async stub's callbacks into a queue the feature reads in order with a timeout, so
 * a stream check reads like a conversation ("send A, read A's answer") and never hangs.
 */
final class StreamCollector<T> implements StreamObserver<T> {
  private sealed interface Event permits Message, End {}

  private record Message(Object value) implements Event {}

  private record End(Status status) implements Event {}

  private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();

  @Override
  public void onNext(T value) {
    events.add(new Message(value));
  }

  @Override
  public void onError(Throwable t) {
    events.add(new End(Status.fromThrowable(t)));
  }

  @Override
  public void onCompleted() {
    events.add(new End(Status.OK));
  }

  /** The next message; fails if the stream ends first or nothing comes in time. */
  @SuppressWarnings("unchecked")
  T next(Duration within, String what) throws InterruptedException {
    Event e = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
    if (e == null) {
      throw new CheckFailed(what + ": no message within " + within.toMillis() + " ms");
    }
    if (e instanceof End end) {
      throw new CheckFailed(what + ": stream ended with " + describe(end.status()) + " before a message");
    }
    return (T) ((Message) e).value();
  }

  /** How the stream ends; fails if another message comes or nothing comes in time. */
  Status end(Duration within, String what) throws InterruptedException {
    Event e = events.poll(within.toMillis(), TimeUnit.MILLISECONDS);
    if (e == null) {
      throw new CheckFailed(what + ": the stream did not end within " + within.toMillis() + " ms");
    }
    if (e instanceof Message m) {
      throw new CheckFailed(what + ": unexpected message " + Checks.show(m.value()));
    }
    return ((End) e).status();
  }

  static String describe(Status s) {
    return s.getCode() + (s.getDescription() == null ? "" : " (" + s.getDescription() + ")");
  }
}
