package com.acme.person.store;

import java.nio.file.Path;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Why the service refused to start, when a file of its store is damaged: the file, what is
 * wrong with it, and what to do — in place of a stack trace. H2 finds a damaged file either when
 * it opens it (before the store's own check) or when the store reads every row at start-up.
 */
public final class DamagedStoreFailureAnalyzer implements FailureAnalyzer {

  @Override
  public FailureAnalysis analyze(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StoreDamagedException damaged) {
        return analysis(damaged.file(), damaged.getMessage(), failure);
      }
    }
    if (H2Lifecycle.corrupted(failure)) {
      return analysis(null, "H2 cannot read its database file: " + root(failure), failure);
    }
    return null;
  }

  private static FailureAnalysis analysis(Path file, String description, Throwable cause) {
    String which = file == null ? "the database file (person.mv.db in PERSON_DATA_DIR)" : file.toString();
    return new FailureAnalysis(
        "person store: refusing to start: " + description,
        "Restore " + which + " from a backup, or salvage what can be read with H2's Recover tool"
            + " (java -cp h2.jar org.h2.tools.Recover); the service does not serve a damaged store. A restored"
            + " or salvaged file holds fewer people than before: delete person.high-water beside it to accept that.",
        cause);
  }

  private static String root(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
