package com.acme.person.store;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded store's journal (person.journal beside person.mv.db): every group of single
 * registrations is appended here after its H2 commit and before it is answered. H2 writes its
 * file in the background (about every half second), so without the journal a process that dies
 * takes the last moments of acknowledged people with it; with it, they are inserted again at
 * the next start. The journal only has to hold what H2 may not have written yet: every few
 * seconds it is rotated (person.journal.old), H2 is made to write everything (CHECKPOINT) and
 * the old part is deleted.
 *
 * <p>An append is written at the journal's end; if it fails (a full disk), the end is cut back
 * to where it was, so the next append never lands behind a torn record.
 */
final class Journal implements Closeable {
  /**
   * The most handed to one write. A heap buffer is copied into a direct one for the write, and
   * the JDK keeps such buffers per thread only up to jdk.nio.maxCachedBufferSize (256 KB in the
   * image): a group of large people written at once would take a fresh one of the group's size
   * from malloc (megabytes, outside the heap's limit) on every append.
   */
  static final int MAX_WRITE_BYTES = 256 * 1024;

  private final Path file;
  private final Path old;
  private FileChannel channel;
  private long size;

  Journal(Path file) throws IOException {
    this.file = file;
    this.old = file.resolveSibling(file.getFileName() + ".old");
    this.channel = open(file);
    this.size = channel.size();
  }

  /** The journal of the database file person.mv.db: person.journal. */
  static Path of(Path databaseFile) {
    return StoreKind.beside(databaseFile, ".journal");
  }

  Path file() {
    return file;
  }

  /** The journal files there are, oldest first, to replay. */
  static List<Path> existing(Path file) {
    List<Path> files = new ArrayList<>();
    Path old = file.resolveSibling(file.getFileName() + ".old");
    if (Files.exists(old)) {
      files.add(old);
    }
    if (Files.exists(file)) {
      files.add(file);
    }
    return files;
  }

  /** Appends records; with fsync, returns once they are on the disk itself. */
  synchronized void append(ByteBuffer records, boolean fsync) throws IOException {
    long start = size;
    try {
      long at = start;
      int end = records.limit();
      while (records.hasRemaining()) {
        records.limit(Math.min(end, records.position() + MAX_WRITE_BYTES));
        try {
          at += channel.write(records, at);
        } finally {
          records.limit(end);
        }
      }
      if (fsync) {
        channel.force(false);
      }
      size = at;
    } catch (IOException e) {
      try {
        channel.truncate(start);
      } catch (IOException undo) {
        e.addSuppressed(undo); // the next append overwrites from start all the same
      }
      throw e;
    }
  }

  /**
   * Moves what the journal holds to person.journal.old and starts an empty one. Returns false
   * (and does nothing) when the last rotation's old part is still there.
   */
  synchronized boolean rotate(boolean fsync) throws IOException {
    if (Files.exists(old)) {
      return false;
    }
    if (size == 0) {
      return false;
    }
    channel.close();
    Files.move(file, old, StandardCopyOption.ATOMIC_MOVE);
    channel = open(file);
    size = 0;
    if (fsync) {
      syncFolder();
    }
    return true;
  }

  boolean hasOld() {
    return Files.exists(old);
  }

  /** Deletes the old part, once H2 has written everything it held. */
  void dropOld() throws IOException {
    Files.deleteIfExists(old);
  }

  /** Empties the journal: everything it held is in H2's file. */
  synchronized void clear() throws IOException {
    channel.truncate(0);
    size = 0;
    Files.deleteIfExists(old);
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }

  private void syncFolder() throws IOException {
    try (FileChannel folder = FileChannel.open(file.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
      folder.force(true);
    }
  }

  private static FileChannel open(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
  }
}
