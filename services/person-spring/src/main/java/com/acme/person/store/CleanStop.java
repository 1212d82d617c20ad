package com.acme.person.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Whether the embedded store stopped cleanly last time: a file (person.clean-stop beside
 * person.mv.db) written once a clean stop has had H2 write everything, emptied the journal and
 * closed H2, and taken away when the store starts, before it writes anything. A start that finds none
 * follows a crash (or a start that never finished), whose leftovers in H2's file need
 * clearing (UniqueIndexes).
 */
final class CleanStop {
  private final Path file;
  private final boolean fsync;

  CleanStop(Path databaseFile, boolean fsync) {
    this.file = StoreKind.beside(databaseFile, ".clean-stop");
    this.fsync = fsync;
  }

  Path file() {
    return file;
  }

  /**
   * True if the last stop was clean; the mark is gone afterwards, so a crash from now on is
   * seen by the next start. A mark that cannot be removed (a read-only folder) counts as no
   * mark: it could outlive a crash that follows.
   */
  boolean take() {
    if (!Files.exists(file)) {
      return false;
    }
    try {
      Files.delete(file);
      if (fsync) {
        // The removal must outlive a power loss too, or the start after it would trust the file.
        try (FileChannel folder = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
          folder.force(true);
        }
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** At the end of a clean stop: H2 holds everything and is closed, the journal is empty. */
  void mark() throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      if (fsync) {
        channel.force(true);
      }
    }
  }
}
