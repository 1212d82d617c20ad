package com.acme.person.store;

import java.util.function.Supplier;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store as the registry uses it: the repository for reads and for the writes of a
 * transaction, the group commit for single registrations, and around every use what makes it
 * safe — the store reopened first if it had to close, a stream's commit made durable before it
 * is answered, and a failure of the disk or the database said in the contract's terms
 * (StoreFailures).
 */
public final class PersonStore {
  private final PersonRepository repository;
  private final TransactionTemplate tx;
  private final GroupCommit groups;
  private final Durability durability;
  private final StoreFailures failures;

  PersonStore(PersonRepository repository, TransactionTemplate tx, GroupCommit groups, Durability durability,
      StoreFailures failures) {
    this.repository = repository;
    this.tx = tx;
    this.groups = groups;
    this.durability = durability;
    this.failures = failures;
  }

  public PersonRepository repository() {
    return repository;
  }

  /** Stores a person (id set) under requestId, or finds the earlier one; returns once durable. */
  public GroupCommit.Outcome register(String requestId, String hash, com.acme.person.domain.PersonDto person) {
    try {
      return groups.write(requestId, hash, person);
    } catch (RuntimeException e) {
      throw failures.database("storing a person", e);
    }
  }

  /** A read of the store. */
  public <T> T read(Supplier<T> read) {
    try {
      if (failures.needsRecovery()) {
        durability.beforeWrite();
      }
      return read.get();
    } catch (RuntimeException e) {
      throw failures.database("reading people", e);
    }
  }

  /**
   * A RegisterPeople stream's transaction: work runs in it, and its commit is made durable
   * before this returns (so before the stream is answered).
   */
  public <T> T writeStream(Supplier<T> work) {
    try {
      durability.beforeWrite();
      T result = tx.execute(status -> work.get());
      durability.streamCommitted();
      return result;
    } catch (RuntimeException e) {
      throw failures.database("storing a stream of people", e);
    }
  }

  /** Everything committed so far survives a crash: before answering from a stored record. */
  public void barrier() {
    try {
      durability.barrier();
    } catch (RuntimeException e) {
      throw failures.database("writing the database file", e);
    }
  }
}
