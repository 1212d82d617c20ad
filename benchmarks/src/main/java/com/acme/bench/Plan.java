package com.acme.bench;

/**
 * How much each scenario does. full is what `make bench` runs (N up to 100,000; 1,000 requests
 * per payload size, 10 s at 100/s, enough for a p99 of ten samples; 10,000 concurrent
 * requests; 1 to 500 concurrent uploaders of 1,000 people each); smoke is `make test`'s run of
 * every scenario at tiny sizes, which proves the machinery, not the numbers (but 500 uploaders
 * at once all the same: that none is refused is not a timing).
 */
record Plan(
    String name,
    int reps,
    int[] callsInARow,
    int headerCalls,
    int sweepRequests,
    int newConnectionCalls,
    int concurrentRequests,
    int phaseCalls,
    int sameClientRequests,
    int crossCheckCallsInARow,
    int crossCheckSweepRequests,
    int[] uploaders,
    int uploadPeople) {

  static Plan of(String name) {
    return switch (name) {
      case "full" -> new Plan("full", 3, new int[] {10, 100, 1_000, 10_000, 100_000}, 20, 1_000, 500, 10_000, 5_000, 20_000, 10_000, 300,
          new int[] {1, 10, 100, 500}, 1_000);
      case "smoke" -> new Plan("smoke", 1, new int[] {10, 100}, 5, 20, 10, 200, 50, 200, 100, 20,
          new int[] {1, 10, 100, 500}, 10);
      default -> throw new IllegalArgumentException("BENCH_PLAN must be full or smoke, not " + name);
    };
  }
}
