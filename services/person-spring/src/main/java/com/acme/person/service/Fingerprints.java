package com.acme.person.service;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What tells a retry from a different request under the same request_id: SHA-256 over the
 * fields of the people as sent, each length-prefixed so no two different people hash alike.
 * Not over protobuf bytes: an encoding is not canonical (field order, packing and unknown
 * fields differ between senders), the fields are. The first 128 bits of the digest are kept
 * (hex): plenty to tell a retry from a different request, and half the bytes on disk.
 */
final class Fingerprints {
  /** The bytes of SHA-256 kept. */
  static final int BYTES = 16;

  private Fingerprints() {}

  /** The fingerprint of one person. */
  static String of(PersonDto person) {
    Stream stream = new Stream();
    stream.add(person);
    return stream.hex();
  }

  /** The fingerprint of a stream of people, in order, built as they arrive. */
  static final class Stream {
    private final MessageDigest digest = sha256();
    private String hex;

    void add(PersonDto p) {
      if (hex != null) {
        throw new IllegalStateException("the fingerprint is complete");
      }
      text(p.name());
      number(p.age());
      number(p.hobbies().size());
      p.hobbies().forEach(this::text);
      AddressDto a = p.address();
      number(a == null ? 0 : 1);
      if (a != null) {
        text(a.city());
        text(a.zipCode());
      }
    }

    /** The fingerprint of the people added so far; no person may be added after. */
    String hex() {
      if (hex == null) {
        hex = HexFormat.of().formatHex(digest.digest(), 0, BYTES);
      }
      return hex;
    }

    private void text(String value) {
      byte[] bytes = (value == null ? "" : value).getBytes(StandardCharsets.UTF_8);
      number(bytes.length);
      digest.update(bytes);
    }

    private void number(long value) {
      digest.update(ByteBuffer.allocate(Long.BYTES).putLong(value).array());
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
