package com.acme.person.mapping;

import com.google.protobuf.Timestamp;
import java.time.Instant;

/** Instant ↔ google.protobuf.Timestamp, shared by both mappers. */
public final class ProtoTimes {
  private ProtoTimes() {}

  public static Timestamp toTimestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  public static Instant toInstant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }
}
