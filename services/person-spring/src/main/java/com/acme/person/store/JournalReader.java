package com.acme.person.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a journal file back at start-up. A record cut short at the end of the file — a write a
 * crash interrupted — ends it; anything else that is not a whole record (a wrong checksum with
 * more data after it) means the file is damaged, and the store refuses to start rather than
 * serve a registry with acknowledged people missing.
 */
final class JournalReader {
  private JournalReader() {}

  /** The people a journal file holds, and where its whole records end. */
  record Contents(List<StoredPerson> people, long end, long size) {
    boolean torn() {
      return end < size;
    }
  }

  static Contents read(Path file) throws IOException {
    byte[] data = Files.readAllBytes(file);
    List<StoredPerson> people = new ArrayList<>();
    int at = 0;
    while (at + JournalCodec.HEADER <= data.length) {
      int length = readInt(data, at);
      int crc = readInt(data, at + 4);
      int next = at + JournalCodec.HEADER + length;
      if (length <= 0 || length > JournalCodec.MAX_PAYLOAD || next > data.length) {
        break;
      }
      byte[] payload = java.util.Arrays.copyOfRange(data, at + JournalCodec.HEADER, next);
      if (!JournalCodec.valid(payload, crc)) {
        break;
      }
      try {
        people.add(JournalCodec.read(payload));
      } catch (IOException e) {
        throw new StoreDamagedException(file, "record at byte " + at + " cannot be read", e);
      }
      at = next;
    }
    if (at < data.length && !tornTail(data, at)) {
      throw new StoreDamagedException(file, "bytes " + at + " to " + data.length
          + " are not a journal record, and are not a record cut short at the end", null);
    }
    return new Contents(people, at, data.length);
  }

  /**
   * What follows the last whole record is one record cut short by the end of the file, or
   * zeros (the file's size was set before its bytes were written).
   */
  private static boolean tornTail(byte[] data, int at) {
    boolean zeros = true;
    for (int i = at; i < data.length && zeros; i++) {
      zeros = data[i] == 0;
    }
    if (zeros) {
      return true;
    }
    if (at + JournalCodec.HEADER > data.length) {
      return true;
    }
    int length = readInt(data, at);
    return length > 0 && length <= JournalCodec.MAX_PAYLOAD && at + JournalCodec.HEADER + length > data.length;
  }

  private static int readInt(byte[] b, int at) {
    return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
  }
}
