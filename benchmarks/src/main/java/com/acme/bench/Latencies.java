package com.acme.bench;

import java.util.Arrays;

/** Latencies of one measurement, kept whole (no bucketing), so percentiles are exact. */
final class Latencies {
  private long[] nanos = new long[1024];
  private int n;

  synchronized void add(long latencyNanos) {
    if (n == nanos.length) {
      nanos = Arrays.copyOf(nanos, n * 2);
    }
    nanos[n++] = latencyNanos;
  }

  synchronized int count() {
    return n;
  }

  /** The p-th percentile (nearest rank) in milliseconds. */
  synchronized double percentile(double p) {
    if (n == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, n);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * n);
    return sorted[Math.max(0, Math.min(n - 1, rank - 1))] / 1e6;
  }

  synchronized double max() {
    long max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, nanos[i]);
    }
    return n == 0 ? Double.NaN : max / 1e6;
  }
}
