package com.acme.person.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The largest person number (seq) the embedded store's file is known to hold, kept outside that
 * file (person.high-water beside person.mv.db). H2 opens a file whose pages were lost as an
 * older store, or as an empty one when every chunk is gone, without an error; the store's own
 * start then sees fewer people than this mark and refuses to start instead of serving the loss.
 * The mark only ever names people H2 has written to its file (it is taken before a checkpoint
 * and written after it), so a process crash never leaves it ahead of the file.
 */
final class HighWaterMark {
  private final Path file;

  HighWaterMark(Path databaseFile) {
    this.file = StoreKind.beside(databaseFile, ".high-water");
  }

  Path file() {
    return file;
  }

  /** The mark, or 0 when there is none yet (a new store, or one from before the mark). */
  long read() throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      throw new IOException(file + " does not hold a person number: '" + text + "'", e);
    }
  }

  /** Replaces the mark at once (a rename), forced to the disk with fsync. */
  void write(long seq, boolean fsync) throws IOException {
    Path next = file.resolveSibling(file.getFileName() + ".next");
    try (FileChannel channel = FileChannel.open(next, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      channel.write(ByteBuffer.wrap((seq + "\n").getBytes(StandardCharsets.US_ASCII)));
      if (fsync) {
        channel.force(true);
      }
    }
    Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }
}
