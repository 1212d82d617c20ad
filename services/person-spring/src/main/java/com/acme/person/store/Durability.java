package com.acme.person.store;

import java.util.List;

/**
 * What makes a commit survive a crash of the service's process before it is acknowledged. The
 * store calls it after every commit and before answering; PostgreSQL needs nothing (its commit
 * is on disk when it returns), the embedded H2 keeps a journal (H2Durability).
 */
interface Durability {

  /**
   * Before anything is written: the store can make a write durable now (a store that had to
   * close after a failed write is reopened first). Throws StoreUnavailableException if not.
   */
  default void beforeWrite() {}

  /** A group of single registrations committed (people may be empty: only earlier ones found). */
  void peopleCommitted(List<StoredPerson> people);

  /** A RegisterPeople stream committed, or is about to be answered again from its record. */
  void streamCommitted();

  /** Everything committed so far survives a crash: before a stream is answered from its record. */
  void barrier();

  /** The commits of PostgreSQL: durable when they return (synchronous_commit is on). */
  Durability DATABASE = new Durability() {
    @Override public void peopleCommitted(List<StoredPerson> people) {}
    @Override public void streamCommitted() {}
    @Override public void barrier() {}
  };
}
