package com.acme.person.store;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The journal's records: a stored person with everything needed to insert it again — seq, id,
 * created_at, the person's fields, and its request_id and fingerprint — framed as
 * [length][CRC-32C][payload], so that a record cut short, or damaged, is told from a whole one.
 */
final class JournalCodec {
  static final int HEADER = 8;
  /** Larger than any record (the largest valid person is about 8.2 MB). */
  static final int MAX_PAYLOAD = 32 << 20;
  private static final byte VERSION = 1;

  private JournalCodec() {}

  /**
   * The records of people, one after the other, ready to append. Each payload is written once
   * and copied once, into the buffer returned: a group of large people (a person may be 8 MB)
   * costs about their size again, not a copy per step.
   */
  static ByteBuffer records(List<StoredPerson> people) {
    // Sized from the people's text (at least the payload when it is ASCII) so that a group of
    // large people is not copied again at each doubling of the buffers.
    int largest = 0;
    long total = 0;
    for (StoredPerson p : people) {
      int size = estimatedSize(p);
      largest = Math.max(largest, size);
      total += HEADER + size;
    }
    Bytes all = new Bytes((int) Math.min(total, Integer.MAX_VALUE - 8));
    try {
      DataOutputStream out = new DataOutputStream(all);
      Bytes one = new Bytes(largest);
      for (StoredPerson p : people) {
        one.reset();
        payload(new DataOutputStream(one), p);
        CRC32C crc = new CRC32C();
        crc.update(one.buffer(), 0, one.size());
        out.writeInt(one.size());
        out.writeInt((int) crc.getValue());
        one.writeTo(out);
      }
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return ByteBuffer.wrap(all.buffer(), 0, all.size());
  }

  /** At least a record's payload size when its text is ASCII: fixed fields, text, lengths. */
  static int estimatedSize(StoredPerson s) {
    PersonDto p = s.person();
    return (int) Math.min(160 + p.chars() + 4L * p.hobbies().size(), MAX_PAYLOAD);
  }

  /** A ByteArrayOutputStream whose bytes are read in place. */
  private static final class Bytes extends ByteArrayOutputStream {
    Bytes(int size) {
      super(size);
    }

    byte[] buffer() {
      return buf;
    }
  }

  /** Whether payload (length bytes from offset) is the payload the CRC was computed over. */
  static boolean valid(byte[] payload, int crc) {
    CRC32C check = new CRC32C();
    check.update(payload);
    return (int) check.getValue() == crc;
  }

  static StoredPerson read(byte[] payload) throws IOException {
    DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(payload));
    if (in.readByte() != VERSION) {
      throw new IOException("journal record of an unknown version");
    }
    long seq = in.readLong();
    UUID id = new UUID(in.readLong(), in.readLong());
    Instant createdAt = Instant.EPOCH.plus(in.readLong(), ChronoUnit.MICROS);
    String name = text(in);
    int age = in.readInt();
    AddressDto address = in.readBoolean() ? new AddressDto(text(in), text(in)) : null;
    int hobbies = in.readInt();
    List<String> hobbyList = new ArrayList<>(hobbies);
    for (int i = 0; i < hobbies; i++) {
      hobbyList.add(text(in));
    }
    String requestId = null;
    String hash = null;
    if (in.readBoolean()) {
      requestId = new UUID(in.readLong(), in.readLong()).toString();
      byte[] h = new byte[in.readInt()];
      in.readFully(h);
      hash = PersonRows.hex(h);
    }
    return new StoredPerson(seq, new PersonDto(id.toString(), name, age, hobbyList, address, createdAt), requestId, hash);
  }

  private static void payload(DataOutputStream out, StoredPerson s) throws IOException {
    PersonDto p = s.person();
    UUID id = UUID.fromString(p.id());
    out.writeByte(VERSION);
    out.writeLong(s.seq());
    out.writeLong(id.getMostSignificantBits());
    out.writeLong(id.getLeastSignificantBits());
    out.writeLong(ChronoUnit.MICROS.between(Instant.EPOCH, p.createdAt()));
    text(out, p.name());
    out.writeInt(p.age());
    out.writeBoolean(p.address() != null);
    if (p.address() != null) {
      text(out, p.address().city());
      text(out, p.address().zipCode());
    }
    out.writeInt(p.hobbies().size());
    for (String h : p.hobbies()) {
      text(out, h);
    }
    out.writeBoolean(s.requestId() != null);
    if (s.requestId() != null) {
      UUID r = UUID.fromString(s.requestId());
      out.writeLong(r.getMostSignificantBits());
      out.writeLong(r.getLeastSignificantBits());
      byte[] h = PersonRows.bytes(s.requestHash());
      out.writeInt(h.length);
      out.write(h);
    }
  }

  /** A string as its UTF-8 length and bytes; null as length -1. */
  private static void text(DataOutputStream out, String s) throws IOException {
    if (s == null) {
      out.writeInt(-1);
      return;
    }
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String text(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      return null;
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
