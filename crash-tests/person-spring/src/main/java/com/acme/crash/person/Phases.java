package com.acme.crash.person;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * How long each phase of a scenario took (start-up and login, load, kill or stop, restart, read
 * back, replay, …), printed in one line at its end: where the suite's minutes go, pass or fail.
 */
final class Phases {
  private static final List<String> ENDED = new ArrayList<>();
  /** The first phase (the JVM's start and the login) counts from the JVM's start. */
  private static long since = System.nanoTime() - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;

  private Phases() {}

  /**
   * A scenario begins: its phases are counted afresh. The first scenario's first phase counts
   * from the JVM's start, a later one's from the end of the scenario before.
   */
  static synchronized void begin() {
    ENDED.clear();
  }

  /** Ends the phase that ran since the last one ended (or since the program started). */
  static synchronized void end(String phase) {
    long now = System.nanoTime();
    ENDED.add(String.format("%s %.1f s", phase, (now - since) / 1e9));
    since = now;
  }

  static synchronized String summary() {
    return String.join(", ", ENDED);
  }
}
