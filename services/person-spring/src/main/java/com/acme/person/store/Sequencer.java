package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.util.ArrayList;
import java.util.List;

/**
 * Stamps people right before they are inserted: created_at (IdentityAssigner.now) and, for the
 * embedded store, seq, the key of its person table and the order ListPeople reads it in. Both
 * are taken under one lock, with the name index entry, so seq order is created_at order and the
 * index only ever appends. seq is counted here, from the largest stored: one service per embedded
 * database, which H2 ensures (it locks its file against a second process).
 */
final class Sequencer {
  private final IdentityAssigner identity;
  private final NameIndex index;
  private long lastSeq;

  /** index is null for PostgreSQL, whose pages and search need no seq. */
  Sequencer(IdentityAssigner identity, NameIndex index) {
    this.identity = identity;
    this.index = index;
  }

  /** people as they will be stored, with their seqs. */
  synchronized Stamped stamp(List<PersonDto> people) {
    List<PersonDto> stamped = new ArrayList<>(people.size());
    long[] seqs = new long[people.size()];
    for (int i = 0; i < people.size(); i++) {
      PersonDto p = people.get(i);
      seqs[i] = ++lastSeq;
      stamped.add(p.stored(p.id(), identity.now()));
      if (index != null) {
        index.add(seqs[i], p.name());
      }
    }
    return new Stamped(stamped, seqs);
  }

  /** Seqs given from now on are larger than seq (the largest stored). */
  synchronized void startAfter(long seq) {
    lastSeq = Math.max(lastSeq, seq);
  }

  /** People with their created_at and seq, in the same order. */
  record Stamped(List<PersonDto> people, long[] seqs) {}
}
