package com.acme.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * An open-loop load: request i is due at start + i / rate, whatever happened to the ones
 * before, as k6's constant-arrival-rate does. A request that cannot start when due, because
 * MAX_IN_FLIGHT are still unanswered, is dropped (k6: dropped_iterations); latency runs from
 * the due time, not the send time, so a late start is counted, never hidden (coordinated
 * omission).
 */
final class OpenLoop {
  /**
   * The most requests in flight at once, as k6's pre-allocated VUs: when this many are
   * unanswered the next due request is dropped, so a stalled service shows as drops instead
   * of an ever-growing queue in the client.
   */
  static final int MAX_IN_FLIGHT = 100;

  record Outcome(Latencies latencies, int sent, int dropped, int failed, double achievedRate, String firstError) {}

  private OpenLoop() {}

  /** call starts one request and completes when it was answered (exceptionally on failure). */
  static Outcome run(int count, double ratePerSecond, Supplier<CompletableFuture<?>> call) throws InterruptedException {
    Latencies latencies = new Latencies();
    Semaphore slots = new Semaphore(MAX_IN_FLIGHT);
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger dropped = new AtomicInteger();
    String[] firstError = {null};
    CountDownLatch done = new CountDownLatch(count);
    long interval = (long) (1e9 / ratePerSecond);
    long start = System.nanoTime() + 1_000_000;
    long lastAnswer[] = {start};
    for (int i = 0; i < count; i++) {
      long due = start + i * interval;
      long wait;
      while ((wait = due - System.nanoTime()) > 0) {
        LockSupport.parkNanos(wait);
      }
      if (!slots.tryAcquire()) {
        dropped.incrementAndGet();
        done.countDown();
        continue;
      }
      CompletableFuture<?> answer;
      try {
        answer = call.get();
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      answer.whenComplete(
          (ok, error) -> {
            long now = System.nanoTime();
            if (error == null) {
              latencies.add(now - due);
            } else {
              failed.incrementAndGet();
              synchronized (firstError) {
                if (firstError[0] == null) {
                  firstError[0] = String.valueOf(error);
                }
              }
            }
            synchronized (lastAnswer) {
              lastAnswer[0] = Math.max(lastAnswer[0], now);
            }
            slots.release();
            done.countDown();
          });
    }
    if (!done.await(2, TimeUnit.MINUTES)) {
      throw new IllegalStateException("open loop: answers still missing 2 minutes after the last request was due");
    }
    int answered = latencies.count();
    double seconds = (lastAnswer[0] - start) / 1e9;
    return new Outcome(latencies, count - dropped.get(), dropped.get(), failed.get(), answered / seconds, firstError[0]);
  }
}
