package com.acme.person.store;

import java.util.Arrays;

/**
 * One trigram's people, by seq, in increasing order: each as the varint of its distance from
 * the one before (about 1.5 bytes a person). Appended to by one writer at a time; readers take
 * a {@link View} and read it without a lock, since bytes once written never change (a larger
 * array is a copy).
 */
final class Postings {
  private byte[] data = new byte[8];
  private int length;
  private int count;
  private long last;

  /** Appends seq, which must be larger than every seq appended before. */
  void add(long seq) {
    long delta = seq - last;
    if (delta <= 0) {
      throw new IllegalArgumentException("seq " + seq + " after " + last);
    }
    if (length + 10 > data.length) {
      data = Arrays.copyOf(data, Math.max(16, data.length * 3 / 2 + 10));
    }
    while (delta >= 0x80) {
      data[length++] = (byte) (delta | 0x80);
      delta >>>= 7;
    }
    data[length++] = (byte) delta;
    last = seq;
    count++;
  }

  /** What has been appended so far; taken under the index's lock. */
  View view() {
    return new View(data, length, count);
  }

  int bytes() {
    return data.length;
  }

  /** A fixed prefix of the postings. */
  record View(byte[] data, int length, int count) {
    Cursor cursor() {
      return new Cursor(this);
    }
  }

  /** Reads a view's seqs in order. */
  static final class Cursor {
    private final View view;
    private int pos;
    private long current = -1;

    Cursor(View view) {
      this.view = view;
    }

    /** The next seq, or -1 at the end. */
    long next() {
      if (pos >= view.length) {
        current = Long.MAX_VALUE;
        return -1;
      }
      long delta = 0;
      int shift = 0;
      byte b;
      do {
        b = view.data[pos++];
        delta |= (long) (b & 0x7f) << shift;
        shift += 7;
      } while (b < 0);
      current = (current < 0 ? 0 : current) + delta;
      return current;
    }

    /** The first seq at least target from where the cursor is, or -1 at the end. */
    long advanceTo(long target) {
      if (current == Long.MAX_VALUE) {
        return -1;
      }
      if (current >= target) {
        return current;
      }
      long s;
      do {
        s = next();
      } while (s != -1 && s < target);
      return s;
    }
  }
}
