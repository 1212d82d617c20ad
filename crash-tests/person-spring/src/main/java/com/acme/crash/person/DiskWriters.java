package com.acme.crash.person;

import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RegisterPerson writers that go on through a failing disk: every call ends OK,
 * RESOURCE_EXHAUSTED or UNAVAILABLE — anything else (INTERNAL, UNKNOWN) is a defect — and goes
 * into the ledger, so the read-back can hold the service to what it answered.
 */
final class DiskWriters {
  private final Ledger ledger;
  private final List<Thread> threads = new ArrayList<>();
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  final Map<Status.Code, AtomicLong> outcomes = new ConcurrentHashMap<>();
  final List<String> unexpected = new CopyOnWriteArrayList<>();
  /** When each call that failed was sent and when it ended (System.nanoTime). */
  private final java.util.Queue<long[]> failedSpans = new java.util.concurrent.ConcurrentLinkedQueue<>();

  DiskWriters(Service service, Ledger ledger, String prefix, int writers) {
    this.ledger = ledger;
    for (int w = 0; w < writers; w++) {
      ManagedChannel channel = service.channel();
      channels.add(channel);
      var stub = service.authorized(PersonServiceGrpc.newBlockingStub(channel));
      String name = prefix + "d" + w + "-";
      threads.add(new Thread(() -> {
        for (int i = 0; !stop.get(); i++) {
          Person person = Load.person(name + i, i);
          String requestId = UUID.randomUUID().toString();
          long sent = System.nanoTime();
          try {
            Person stored = stub.withDeadlineAfter(60, TimeUnit.SECONDS).registerPerson(
                RegisterPersonRequest.newBuilder().setRequestId(requestId).setPerson(person).build()).getPerson();
            ledger.unary.add(new Ledger.Unary(requestId, person, stored.getId(), Status.Code.OK));
            tally(Status.Code.OK);
          } catch (StatusRuntimeException e) {
            failedSpans.add(new long[] {sent, System.nanoTime()});
            Status.Code code = e.getStatus().getCode();
            ledger.unary.add(new Ledger.Unary(requestId, person, null, code));
            tally(code);
            if (code != Status.Code.RESOURCE_EXHAUSTED && code != Status.Code.UNAVAILABLE) {
              unexpected.add(person.getName() + ": " + Ledger.describe(e));
            }
            sleep(); // a client backs off a failing service
          }
        }
      }, "disk-writer-" + w));
    }
  }

  void start() {
    threads.forEach(Thread::start);
  }

  long count(Status.Code code) {
    AtomicLong n = outcomes.get(code);
    return n == null ? 0 : n.get();
  }

  /** Waits until calls ended OK at least n more times than now; false after timeoutSeconds. */
  boolean awaitStored(long n, long timeoutSeconds) throws InterruptedException {
    return await(() -> count(Status.Code.OK), n, timeoutSeconds);
  }

  /** Waits until at least n more calls were refused as a failing disk allows; false after timeoutSeconds. */
  boolean awaitRefused(long n, long timeoutSeconds) throws InterruptedException {
    return await(this::refused, n, timeoutSeconds);
  }

  private static boolean await(java.util.function.LongSupplier counter, long n, long timeoutSeconds)
      throws InterruptedException {
    long target = counter.getAsLong() + n;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
    while (counter.getAsLong() < target) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(50);
    }
    return true;
  }

  /**
   * Calls that failed, never answered, sent before to (when docker said the process was
   * killed) and ended after from (when the kill was issued): unanswered across the kill.
   */
  long cutAcross(long from, long to) {
    return failedSpans.stream().filter(s -> s[0] < to && s[1] > from).count();
  }

  /** Calls that failed with either code the contract allows for a failing disk. */
  long refused() {
    return count(Status.Code.RESOURCE_EXHAUSTED) + count(Status.Code.UNAVAILABLE);
  }

  void stop() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(120_000);
    }
    channels.forEach(ManagedChannel::shutdownNow);
  }

  private void tally(Status.Code code) {
    outcomes.computeIfAbsent(code, c -> new AtomicLong()).incrementAndGet();
  }

  private static void sleep() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
