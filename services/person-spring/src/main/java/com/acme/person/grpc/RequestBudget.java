package com.acme.person.grpc;

import com.acme.person.config.PersonProperties;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The request messages of unary calls the service has read and not yet decoded, in bytes, over
 * all calls: at most person.limits.requests-in-memory. grpc-java reads a message whole — and
 * gives its HTTP/2 window back as it reads — once the call asks for it; until then at most the
 * stream's window (GrpcTransportConfig) of it is here and the rest waits at the sender. So a
 * call asks for its request only with a ticket from here: its size is not known before it is
 * read, so a ticket reserves the largest a message may be (limits.message-size) and gives back
 * the rest when the message has come. A call without a ticket waits for one, in order, without
 * its message being read; a ticket is released once the message is decoded or the call ends.
 *
 * <p>A ticket whose message has not come within limits.request-arrival-time is taken back: a
 * client that asked and sends nothing must not hold the budget (the call ends with
 * DEADLINE_EXCEEDED).
 */
@Component
class RequestBudget implements AutoCloseable {

  /** Held bytes now and at most since the start, for operators and tests. */
  static final String HELD = "person.grpc.requests.held";
  static final String PEAK = "person.grpc.requests.held.peak";

  private final long capacity;
  private final long perMessage;
  private final long arrivalNanos;
  private final ScheduledExecutorService sweeper;
  private final AtomicLong held = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  // Guarded by this.
  private long reserved;
  private final ArrayDeque<Ticket> waiting = new ArrayDeque<>();
  private final LinkedHashSet<Ticket> asked = new LinkedHashSet<>();

  RequestBudget(PersonProperties properties, MeterRegistry registry) {
    PersonProperties.Limits limits = properties.limits();
    this.capacity = limits.requestsInMemory().toBytes();
    this.perMessage = limits.messageSize().toBytes();
    if (capacity < perMessage) {
      throw new IllegalArgumentException("person.limits.requests-in-memory (" + capacity
          + " bytes) must hold at least one message of person.limits.message-size (" + perMessage + " bytes)");
    }
    this.arrivalNanos = limits.requestArrivalTime().toNanos();
    long sweepMillis = Math.max(10, limits.requestArrivalTime().toMillis() / 4);
    this.sweeper = Executors.newSingleThreadScheduledExecutor(
        new ThreadFactoryBuilder().setNameFormat("grpc-request-arrival").setDaemon(true).build());
    sweeper.scheduleWithFixedDelay(this::takeBackLate, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
    Gauge.builder(HELD, held, AtomicLong::get).baseUnit("bytes")
        .description("request messages read and not yet decoded").register(registry);
    Gauge.builder(PEAK, peak, AtomicLong::get).baseUnit("bytes")
        .description("the most request bytes held undecoded at once since the service started").register(registry);
  }

  /**
   * A ticket for one call's request message: ask() it, and asked runs once the budget has room
   * (at once when it has); late runs if the message then does not come in time.
   */
  Ticket ticket(Runnable asked, Runnable late) {
    return new Ticket(asked, late);
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
  }

  final class Ticket {
    private final Runnable granted;
    private final Runnable late;
    // Guarded by RequestBudget.this.
    private long reservation;
    private long bytes;
    private long grantedAt;
    private boolean arrived;
    private boolean done;

    private Ticket(Runnable granted, Runnable late) {
      this.granted = granted;
      this.late = late;
    }

    /** Waits for room, then asks for the message (granted). */
    void ask() {
      List<Ticket> now;
      synchronized (RequestBudget.this) {
        if (done) {
          return;
        }
        waiting.add(this);
        now = grantable();
      }
      grant(now);
    }

    /** The message came, bytes long: the rest of the reservation is given back. */
    void arrived(long size) {
      List<Ticket> now;
      synchronized (RequestBudget.this) {
        if (done || arrived) {
          return;
        }
        arrived = true;
        asked.remove(this);
        bytes = size;
        long kept = Math.max(size, 0);
        reserved -= reservation - kept;
        reservation = kept;
        now = grantable();
      }
      peak.accumulateAndGet(held.addAndGet(bytes), Math::max);
      grant(now);
    }

    /** The call ended: what it reserved is free unless its message came (release() then). */
    void abandon() {
      free(true);
    }

    /** The message is decoded or dropped, or never came: its bytes and reservation are free. Once. */
    void release() {
      free(false);
    }

    private void free(boolean unlessArrived) {
      List<Ticket> now;
      long freed;
      synchronized (RequestBudget.this) {
        if (done || (unlessArrived && arrived)) {
          return;
        }
        done = true;
        if (!waiting.remove(this)) {
          asked.remove(this);
          reserved -= reservation;
        }
        freed = arrived ? bytes : 0;
        now = grantable();
      }
      held.addAndGet(-freed);
      grant(now);
    }
  }

  /** The waiting tickets that fit now, in order, reserved. Under the lock. */
  private List<Ticket> grantable() {
    List<Ticket> now = null;
    while (!waiting.isEmpty() && capacity - reserved >= perMessage) {
      Ticket next = waiting.poll();
      next.reservation = perMessage;
      next.grantedAt = System.nanoTime();
      reserved += perMessage;
      asked.add(next);
      if (now == null) {
        now = new ArrayList<>(2);
      }
      now.add(next);
    }
    return now;
  }

  private static void grant(List<Ticket> tickets) {
    if (tickets != null) {
      tickets.forEach(t -> t.granted.run());
    }
  }

  /** Ends the calls whose message did not come in time after they asked for it. */
  private void takeBackLate() {
    List<Ticket> late = new ArrayList<>();
    long now = System.nanoTime();
    synchronized (this) {
      Iterator<Ticket> oldestFirst = asked.iterator();
      while (oldestFirst.hasNext()) {
        Ticket t = oldestFirst.next();
        if (now - t.grantedAt < arrivalNanos) {
          break;
        }
        late.add(t);
      }
    }
    for (Ticket t : late) {
      try {
        t.late.run();
      } finally {
        t.release();
      }
    }
  }
}
