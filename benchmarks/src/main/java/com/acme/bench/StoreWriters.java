package com.acme.bench;

import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * People stored per second by W concurrent writers: each calls RegisterPerson (a directory
 * person, a fresh request_id) as soon as its last call was answered, on a connection of its
 * own, for a fixed time after a warm-up. Every answer is OK or the run fails. With more
 * writers than one the store's commits are shared (group commit); the figure is what the store
 * sustains while every acknowledged person is durable.
 */
final class StoreWriters {
  private final String target;
  private final String token;

  StoreWriters(String target, String token) {
    this.target = target;
    this.token = token;
  }

  /** People stored per second by writers writers over seconds, after warmup seconds. */
  double run(int writers, double warmup, double seconds) throws InterruptedException {
    AtomicLong stored = new AtomicLong();
    AtomicBoolean counting = new AtomicBoolean();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    CountDownLatch done = new CountDownLatch(writers);
    List<ManagedChannel> channels = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      ManagedChannel channel = Services.channel(target);
      channels.add(channel);
      var stub = StoreBench.authorized(PersonServiceGrpc.newBlockingStub(channel), token);
      Directory people = new Directory(w);
      Thread t = new Thread(() -> {
        try {
          while (!stop.get()) {
            stub.withDeadlineAfter(60, TimeUnit.SECONDS).registerPerson(RegisterPersonRequest.newBuilder()
                .setRequestId(UUID.randomUUID().toString()).setPerson(people.next()).build());
            if (counting.get()) {
              stored.incrementAndGet();
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          stop.set(true);
        } finally {
          done.countDown();
        }
      }, "writer-" + w);
      t.setDaemon(true);
      t.start();
    }
    try {
      Thread.sleep((long) (warmup * 1000));
      long start = System.nanoTime();
      counting.set(true);
      Thread.sleep((long) (seconds * 1000));
      counting.set(false);
      double elapsed = (System.nanoTime() - start) / 1e9;
      stop.set(true);
      done.await(120, TimeUnit.SECONDS);
      if (failure.get() != null) {
        throw new IllegalStateException("a writer failed", failure.get());
      }
      return stored.get() / elapsed;
    } finally {
      stop.set(true);
      channels.forEach(ManagedChannel::shutdownNow);
    }
  }
}
