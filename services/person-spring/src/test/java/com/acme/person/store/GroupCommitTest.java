package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.ServiceTestBase;
import com.acme.person.domain.PersonDto;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A group that holds repeats of a request_id stored before, formed on purpose: the first
 * registration's leader is held in beforeWrite while the others queue behind it, so they are
 * written as one group. The group's first write fails on the stored request_id; every
 * registration must still get what a registration alone would get, and only committed people
 * may reach the durability (the journal of the embedded store).
 */
class GroupCommitTest extends ServiceTestBase {

  private static final String HASH_STORED = "0123456789abcdef0123456789abcdef";
  private static final String HASH_OTHER = "fedcba9876543210fedcba9876543210";

  @Autowired PersonRepository repository;
  @Autowired TransactionTemplate tx;

  private final IdentityAssigner identity = new IdentityAssigner(Clock.systemUTC());

  @Test
  void aGroupWithRepeatsOfAStoredRequestIdAnswersEachAsIfAlone() throws Exception {
    HeldDurability durability = new HeldDurability();
    GroupCommit groups = new GroupCommit(repository, tx, durability, 256, 4 << 20);
    String stored = UUID.randomUUID().toString();
    PersonDto earlier = groups.write(stored, HASH_STORED, person("Earlier Person")).person();

    ExecutorService callers = Executors.newCachedThreadPool();
    try {
      durability.holdNext();
      Future<GroupCommit.Outcome> leader = callers.submit(() -> groups.write(UUID.randomUUID().toString(), HASH_OTHER, person("Leader")));
      assertThat(durability.held.await(10, TimeUnit.SECONDS)).as("the first leader is held").isTrue();
      List<Future<GroupCommit.Outcome>> group = new ArrayList<>();
      // In this order into the queue: a conflicting copy first, then a faithful retry, then a new one.
      String fresh = UUID.randomUUID().toString();
      Object[][] calls = {{stored, HASH_OTHER, "Conflicting Copy"}, {stored, HASH_STORED, "Earlier Person"}, {fresh, HASH_OTHER, "New Person"}};
      for (Object[] call : calls) {
        Thread[] self = new Thread[1];
        CountDownLatch started = new CountDownLatch(1);
        group.add(callers.submit(() -> {
          self[0] = Thread.currentThread();
          started.countDown();
          return groups.write((String) call[0], (String) call[1], person((String) call[2]));
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        waitUntilWaiting(self[0]);
      }
      durability.release();

      assertThat(leader.get(10, TimeUnit.SECONDS).earlierHash()).isNull();
      GroupCommit.Outcome conflicting = group.get(0).get(10, TimeUnit.SECONDS);
      GroupCommit.Outcome retry = group.get(1).get(10, TimeUnit.SECONDS);
      GroupCommit.Outcome created = group.get(2).get(10, TimeUnit.SECONDS);
      assertThat(conflicting.person().id()).isEqualTo(earlier.id());
      assertThat(conflicting.earlierHash()).as("the stored fingerprint, so the registry reports the conflict").isEqualTo(HASH_STORED);
      assertThat(retry.person().id()).isEqualTo(earlier.id());
      assertThat(retry.earlierHash()).as("the stored fingerprint, not the first copy's in the group").isEqualTo(HASH_STORED);
      assertThat(created.earlierHash()).isNull();
      assertThat(created.person().name()).isEqualTo("New Person");
      assertThat(repository.findByRequestId(fresh).map(r -> r.person().id())).contains(created.person().id());
      assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM person WHERE name IN ('Conflicting Copy', 'New Person')", Long.class))
          .as("the repeats stored nobody; the new person once").isEqualTo(1);
      for (StoredPerson committed : durability.committed) {
        assertThat(repository.findById(committed.person().id())).as("made durable only once committed").isPresent();
      }
      assertThat(durability.committed).extracting(p -> p.person().name()).containsExactly("Earlier Person", "Leader", "New Person");
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void aGroupOfLargePeopleIsBoundedByItsText() throws Exception {
    // Five people of 1 MB queue behind a held leader: without a bound on a group's text they
    // would be written as one 5 MB transaction (and 256 of them as one of 256 MB).
    HeldDurability durability = new HeldDurability();
    GroupCommit groups = new GroupCommit(repository, tx, durability, 256, 2_500_000);
    List<String> hobbies = java.util.Collections.nCopies(500, "h".repeat(2000));
    ExecutorService callers = Executors.newCachedThreadPool();
    try {
      durability.holdNext();
      Future<GroupCommit.Outcome> leader = callers.submit(() -> groups.write(null, null, person("Leader")));
      assertThat(durability.held.await(10, TimeUnit.SECONDS)).as("the first leader is held").isTrue();
      List<Future<GroupCommit.Outcome>> queued = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        String name = "Large " + i;
        Thread[] self = new Thread[1];
        CountDownLatch started = new CountDownLatch(1);
        queued.add(callers.submit(() -> {
          self[0] = Thread.currentThread();
          started.countDown();
          return groups.write(null, null, identity.assign(new PersonDto(null, name, 30, hobbies, null, null)));
        }));
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        waitUntilWaiting(self[0]);
      }
      durability.release();

      assertThat(leader.get(10, TimeUnit.SECONDS).earlierHash()).isNull();
      for (Future<GroupCommit.Outcome> f : queued) {
        assertThat(f.get(30, TimeUnit.SECONDS).earlierHash()).isNull();
      }
      assertThat(durability.groups).as("the leader alone, then the five in order, two at most (2 MB) per group")
          .containsExactly(List.of("Leader"), List.of("Large 0", "Large 1"), List.of("Large 2", "Large 3"), List.of("Large 4"));
    } finally {
      callers.shutdownNow();
    }
  }

  private PersonDto person(String name) {
    return identity.assign(new PersonDto(null, name, 30, List.of(), null, null));
  }

  /** Until the thread waits for the leader's lock, having queued its registration. */
  private static void waitUntilWaiting(Thread t) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING) {
      assertThat(System.nanoTime()).as("the caller queues and waits").isLessThan(deadline);
      Thread.sleep(1);
    }
  }

  /** Holds the next group in beforeWrite until released; records what was made durable. */
  private static final class HeldDurability implements Durability {
    final List<StoredPerson> committed = new ArrayList<>();
    /** The names of each group made durable, in order. */
    final List<List<String>> groups = new ArrayList<>();
    final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch go = new CountDownLatch(1);
    private final AtomicBoolean hold = new AtomicBoolean();

    void holdNext() {
      hold.set(true);
    }

    void release() {
      go.countDown();
    }

    @Override
    public void beforeWrite() {
      if (hold.compareAndSet(true, false)) {
        held.countDown();
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public synchronized void peopleCommitted(List<StoredPerson> people) {
      committed.addAll(people);
      groups.add(people.stream().map(p -> p.person().name()).toList());
    }

    @Override
    public void streamCommitted() {}

    @Override
    public void barrier() {}
  }
}
