package com.acme.person.grpc;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one call's events one after the other, in the order they came, on the executor the call
 * runs on now — which may change between two events (CallPlacement moves a call off the
 * transport's thread when a large message arrives). An event submitted while another runs, even
 * from within it, waits for it; with a direct executor the first event runs in the submitting
 * thread at once. An event may hold the ones after it until something it waits for has come
 * (the auth service's answer), without a thread waiting meanwhile.
 */
final class SerialExecutor implements Executor {

  private static final Logger log = LoggerFactory.getLogger(SerialExecutor.class);

  private final ArrayDeque<Runnable> events = new ArrayDeque<>();
  private Executor where;
  private boolean running;
  private boolean held;

  SerialExecutor(Executor where) {
    this.where = where;
  }

  /** From the next event on, runs them on executor. */
  synchronized void moveTo(Executor executor) {
    where = executor;
  }

  @Override
  public void execute(Runnable event) {
    Executor on;
    synchronized (this) {
      events.add(event);
      if (running || held) {
        return;
      }
      running = true;
      on = where;
    }
    schedule(on);
  }

  /** Called by a running event: the events after it wait until resume(). */
  synchronized void hold() {
    held = true;
  }

  /** Runs first, then the events that waited, from any thread. */
  void resume(Runnable first) {
    Executor on;
    synchronized (this) {
      held = false;
      events.addFirst(first);
      if (running) {
        return;
      }
      running = true;
      on = where;
    }
    schedule(on);
  }

  private void schedule(Executor on) {
    try {
      on.execute(() -> drain(on));
    } catch (RuntimeException rejected) {
      // A pool that was shut down: the service is stopping, and so are its calls.
      synchronized (this) {
        running = false;
        events.clear();
      }
      throw rejected;
    }
  }

  private void drain(Executor here) {
    while (true) {
      Runnable event;
      Executor moved = null;
      synchronized (this) {
        if (held) {
          running = false;
          return;
        }
        if (where != here) {
          moved = where;
          event = null;
        } else {
          event = events.poll();
          if (event == null) {
            running = false;
            return;
          }
        }
      }
      if (moved != null) {
        schedule(moved);
        return;
      }
      try {
        event.run();
      } catch (RuntimeException e) {
        // Events end their own failures (CallBoundary); one that did not must not stop the rest.
        log.error("a call's event failed", e);
      }
    }
  }
}
