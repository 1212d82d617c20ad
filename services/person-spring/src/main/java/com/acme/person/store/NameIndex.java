package com.acme.person.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * The embedded store's index for name_contains: for every trigram of the lower-cased names,
 * the seqs of the people whose name has it. It lives in memory (about 20 bytes a person, 20 MB
 * a million), is built from the person table at start-up and kept current as people are
 * inserted — before their transaction commits, so a committed person is never missing from it;
 * a person whose transaction rolled back stays behind as a candidate the read finds no row for.
 * Kept on disk as a table of its own, an entry per trigram and person, every commit rewrote a
 * page per trigram: six times the write cost and three times the file.
 */
final class NameIndex {
  private final Map<Long, Postings> postings = new HashMap<>();
  private long lastSeq;
  private long entries;

  /** Adds a person; seqs must come in increasing order. */
  synchronized void add(long seq, String name) {
    if (seq <= lastSeq) {
      throw new IllegalArgumentException("seq " + seq + " after " + lastSeq);
    }
    lastSeq = seq;
    for (long gram : Trigrams.of(Trigrams.lower(name))) {
      postings.computeIfAbsent(gram, g -> new Postings()).add(seq);
      entries++;
    }
  }

  /**
   * The people who have every trigram of lowerText, in seq order after afterSeq: candidates
   * whose name must still be checked. lowerText must have at least one trigram.
   */
  Candidates candidates(String lowerText, long afterSeq) {
    long[] grams = Trigrams.of(lowerText);
    if (grams.length == 0) {
      throw new IllegalArgumentException("no trigram in " + lowerText);
    }
    Postings.View[] views = new Postings.View[grams.length];
    synchronized (this) {
      for (int i = 0; i < grams.length; i++) {
        Postings p = postings.get(grams[i]);
        if (p == null) {
          return Candidates.NONE;
        }
        views[i] = p.view();
      }
    }
    // The rarest trigram leads; the others are only advanced to its people.
    Arrays.sort(views, Comparator.comparingInt(Postings.View::count));
    return new Candidates(views, afterSeq);
  }

  synchronized long entries() {
    return entries;
  }

  /** Heap the postings take, roughly. */
  synchronized long bytes() {
    long bytes = 0;
    for (Postings p : postings.values()) {
      bytes += p.bytes() + 64;
    }
    return bytes;
  }

  /** The intersection of some trigrams' postings, read in seq order. */
  static final class Candidates {
    static final Candidates NONE = new Candidates(new Postings.View[0], 0);

    private final Postings.Cursor[] cursors;
    private final long afterSeq;
    private boolean started;
    private boolean done;

    private Candidates(Postings.View[] views, long afterSeq) {
      this.cursors = new Postings.Cursor[views.length];
      for (int i = 0; i < views.length; i++) {
        cursors[i] = views[i].cursor();
      }
      this.afterSeq = afterSeq;
      this.done = views.length == 0;
    }

    /** The next candidate's seq, or -1 when there is none. */
    long next() {
      if (done) {
        return -1;
      }
      long seq = started ? cursors[0].next() : cursors[0].advanceTo(afterSeq + 1);
      started = true;
      while (seq != -1) {
        long ahead = seq;
        for (int i = 1; i < cursors.length && ahead == seq; i++) {
          ahead = cursors[i].advanceTo(seq);
          if (ahead == -1) {
            done = true;
            return -1;
          }
        }
        if (ahead == seq) {
          return seq;
        }
        seq = cursors[0].advanceTo(ahead);
      }
      done = true;
      return -1;
    }
  }
}
