package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Single registrations (RegisterPerson, SyncPeople's items, the REST twin) share commits: every
 * caller queues its person and waits; one of them — the leader, whoever holds the lock — takes
 * everything queued, up to {@link #maxGroup} people and {@link #maxGroupChars} characters of
 * their text (a lone larger person still makes a group of its own), and writes it in one transaction with JDBC
 * batches, makes it survive a crash of the process (Durability), and only then answers them all.
 * A caller that arrives while a group is being written is in the next one. With one caller a
 * group is one person; with many, the price of a commit (a journal write, an fsync, a round trip
 * to PostgreSQL) is shared instead of paid once per person.
 *
 * <p>Idempotency: a request_id stored before gets its earlier person, and a second copy of a
 * request_id within the group gets the first copy's person. A group is first written without
 * looking its request_ids up — nearly every registration is new, and in a profile of lone
 * registrations the lookup was a third of their time in the database — so a request_id stored
 * before (a client's retry; RegisterPeople's request_ids are another table's) fails the
 * insert of the group's request records, which comes first (PersonRepository.insertAll), and
 * the group's transaction rolls back whole. The group is then written again with the lookup.
 * If that fails too (another replica of the service on PostgreSQL stored one of the
 * request_ids in between), each registration is written alone.
 */
public final class GroupCommit {

  /** What a registration found or stored. earlierHash is null when it stored the person now. */
  public record Outcome(PersonDto person, String earlierHash) {}

  private final PersonRepository repository;
  private final TransactionTemplate tx;
  private final Durability durability;
  private final int maxGroup;
  /**
   * A group's text, at most (characters; its UTF-8 may take up to three bytes each): what bounds
   * one commit's transaction and journal write, and so what one commit adds to the pages H2 has
   * yet to write — with 1 MB people a group of 256 would be a quarter of a gigabyte, and H2's
   * serialization of a chunk of about 100 MB once ran out of heap (its writer then never
   * recovered; H2Lifecycle.stopForGood).
   */
  private final long maxGroupChars;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final ReentrantLock leader = new ReentrantLock();

  GroupCommit(PersonRepository repository, TransactionTemplate tx, Durability durability, int maxGroup,
      long maxGroupChars) {
    this.repository = repository;
    this.tx = tx;
    this.durability = durability;
    this.maxGroup = maxGroup;
    this.maxGroupChars = maxGroupChars;
  }

  /**
   * Stores person (id set) under requestId (null: none) with the fingerprint hash, or finds the
   * person an earlier request with that request_id stored. Returns once it is durable.
   */
  public Outcome write(String requestId, String hash, PersonDto person) {
    Pending mine = new Pending(new NewPerson(person, requestId, hash));
    queue.add(mine);
    while (true) {
      if (mine.done) {
        return mine.result();
      }
      leader.lock();
      try {
        if (mine.done) {
          return mine.result();
        }
        commit(nextGroup());
      } finally {
        leader.unlock();
      }
    }
  }

  /** What is queued, in order, up to the group's bounds (only the leader takes from the queue). */
  private List<Pending> nextGroup() {
    List<Pending> group = new ArrayList<>();
    long chars = 0;
    for (Pending p; group.size() < maxGroup && (p = queue.peek()) != null; ) {
      if (!group.isEmpty() && chars + p.chars > maxGroupChars) {
        break;
      }
      chars += p.chars;
      group.add(queue.poll());
    }
    return group;
  }

  private void commit(List<Pending> group) {
    try {
      durability.beforeWrite();
      try {
        write(group, false);
      } catch (DuplicateKeyException repeated) {
        try {
          write(group, true);
        } catch (DuplicateKeyException raced) {
          group.forEach(this::writeAlone);
        }
      }
    } catch (RuntimeException | Error e) {
      group.forEach(p -> p.fail(e));
      if (e instanceof Error error) {
        throw error;
      }
    }
  }

  /** The group in one transaction, made durable, then answered. */
  private void write(List<Pending> group, boolean lookUp) {
    List<StoredPerson> stored = tx.execute(s -> writeGroup(group, lookUp));
    durability.peopleCommitted(stored);
    group.forEach(Pending::finish);
  }

  private void writeAlone(Pending p) {
    try {
      write(List.of(p), true);
    } catch (RuntimeException e) {
      p.fail(e);
    }
  }

  /**
   * In the group's transaction: decides each pending's outcome, inserts the new people. With
   * lookUp, request_ids stored before get their earlier person; without, they fail the insert.
   */
  private List<StoredPerson> writeGroup(List<Pending> group, boolean lookUp) {
    Map<String, StoredRequest> earlier = lookUp ? earlier(group) : Map.of();
    List<NewPerson> inserts = new ArrayList<>();
    List<Pending> inserted = new ArrayList<>();
    Map<String, Pending> firstInGroup = new HashMap<>();
    for (Pending p : group) {
      // Decided anew at every attempt: an attempt that rolled back decided nothing.
      p.outcome = null;
      p.sameAs = null;
      String requestId = p.person.requestId();
      StoredRequest found = requestId == null ? null : earlier.get(requestId);
      Pending first = requestId == null ? null : firstInGroup.get(requestId);
      if (found != null) {
        p.outcome = new Outcome(found.person(), found.requestHash());
      } else if (first != null) {
        p.sameAs = first;
      } else {
        if (requestId != null) {
          firstInGroup.put(requestId, p);
        }
        inserts.add(p.person);
        inserted.add(p);
      }
    }
    List<StoredPerson> stored = inserts.isEmpty() ? List.of() : repository.insertAll(inserts);
    for (int i = 0; i < stored.size(); i++) {
      inserted.get(i).outcome = new Outcome(stored.get(i).person(), null);
    }
    return stored;
  }

  private Map<String, StoredRequest> earlier(List<Pending> group) {
    List<String> requestIds = new ArrayList<>();
    for (Pending p : group) {
      if (p.person.requestId() != null) {
        requestIds.add(p.person.requestId());
      }
    }
    return repository.findRequests(requestIds);
  }

  /** One caller's registration, and its answer once the leader has written it. */
  private static final class Pending {
    final NewPerson person;
    final long chars;
    Outcome outcome;
    Pending sameAs;
    RuntimeException failure;
    volatile boolean done;

    Pending(NewPerson person) {
      this.person = person;
      this.chars = person.person().chars();
    }

    void finish() {
      if (sameAs != null) {
        outcome = new Outcome(sameAs.outcome.person(), sameAs.person.requestHash());
      }
      done = true;
    }

    void fail(Throwable t) {
      if (done) {
        return; // answered already (an Error after part of a group was written alone)
      }
      failure = t instanceof RuntimeException r ? r : new IllegalStateException(t);
      outcome = null;
      done = true;
    }

    Outcome result() {
      if (failure != null) {
        throw failure;
      }
      return outcome;
    }
  }
}
