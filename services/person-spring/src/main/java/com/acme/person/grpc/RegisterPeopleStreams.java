package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.acme.person.error.LimitReachedException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Component;

/**
 * What every RegisterPeople stream shares: the places (person.limits.register-people-streams
 * streams open at once) and the writers, the few threads that store streams, each in one
 * transaction. A stream holds a place from its start to its end, but a writer only once it is
 * ready to be stored; how much it may hold meanwhile is its buffer (person.register-people).
 */
@Component
class RegisterPeopleStreams {

  /** When a refused stream may try again: by then, streams in progress have ended or moved on. */
  static final Duration RETRY_AFTER = Duration.ofSeconds(1);

  private final Semaphore places;
  private final int limit;
  private final Executor writers;
  private final int window;
  private final long buffer;

  RegisterPeopleStreams(@Qualifier("registerPeopleWorkers") Executor writers, PersonProperties properties) {
    this.limit = properties.limits().registerPeopleStreams();
    this.places = new Semaphore(limit);
    this.writers = writers;
    this.window = properties.registerPeople().window();
    this.buffer = properties.registerPeople().buffer().toBytes();
  }

  /** A place for a new stream, or LimitReachedException (RESOURCE_EXHAUSTED, RetryInfo). */
  Place admit() {
    if (!places.tryAcquire()) {
      throw new LimitReachedException(
          "more than " + limit + " RegisterPeople streams are open; retry later", RETRY_AFTER);
    }
    return new Place();
  }

  /** Stores a stream that is ready, on the first writer free. */
  void store(Runnable stream) {
    writers.execute(stream);
  }

  /** People a stream may have asked for ahead of the store. */
  int window() {
    return window;
  }

  /** Bytes of people a stream may hold ahead of the store (at least one person). */
  long buffer() {
    return buffer;
  }

  /** One stream's place; given back once, however often the stream ends. */
  final class Place {
    private final AtomicBoolean held = new AtomicBoolean(true);

    void release() {
      if (held.getAndSet(false)) {
        places.release();
      }
    }
  }
}
