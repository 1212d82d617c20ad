package com.acme.crash.person;

import java.util.ArrayList;
import java.util.List;

/** The failures of one scenario, each counted by kind with a few examples; the replay's threads share it. */
final class Verdict {
  private final List<String> failures = new ArrayList<>();
  private final java.util.Map<String, List<String>> byKind = new java.util.LinkedHashMap<>();

  synchronized void fail(String kind, String example) {
    byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(example);
  }

  synchronized void failAll(String kind, List<String> examples) {
    examples.forEach(e -> fail(kind, e));
  }

  synchronized boolean passed() {
    return byKind.isEmpty() && failures.isEmpty();
  }

  /** One line per kind of failure: how many, and the first three examples. */
  synchronized List<String> lines() {
    List<String> lines = new ArrayList<>();
    byKind.forEach((kind, examples) -> lines.add(String.format("%s: %,d (e.g. %s)", kind, examples.size(),
        String.join("; ", examples.subList(0, Math.min(3, examples.size()))))));
    return lines;
  }
}
