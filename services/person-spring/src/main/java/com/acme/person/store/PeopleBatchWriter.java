package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Turns a stream of people into batches: each person gets its id and created_at, and every
 * batchSize people are handed to the sink (a JDBC batch insert) and forgotten. So a stream of
 * any length holds at most batchSize people, plus at most maxIds ids for the response.
 * Not thread-safe: one writer belongs to one stream's worker.
 */
public final class PeopleBatchWriter {

  private final int batchSize;
  private final int maxIds;
  private final Consumer<List<PersonDto>> sink;
  private final Clock clock;
  private List<PersonDto> batch;
  private List<String> ids = new ArrayList<>();
  private long count;

  public PeopleBatchWriter(int batchSize, int maxIds, Consumer<List<PersonDto>> sink, Clock clock) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1");
    }
    this.batchSize = batchSize;
    this.maxIds = maxIds;
    this.sink = sink;
    this.clock = clock;
    this.batch = new ArrayList<>(batchSize);
  }

  /** Adds one person; writes a batch when it is full. Returns the id the person was given. */
  public String add(PersonDto person) {
    String id = UUID.randomUUID().toString();
    batch.add(person.stored(id, now(clock)));
    count++;
    if (ids != null) {
      ids.add(id);
      if (ids.size() > maxIds) {
        ids = null;
      }
    }
    if (batch.size() == batchSize) {
      flush();
    }
    return id;
  }

  /** Writes what is left; call once at the end of the stream. */
  public void flush() {
    if (!batch.isEmpty()) {
      sink.accept(batch);
      batch = new ArrayList<>(batchSize);
    }
  }

  public long count() {
    return count;
  }

  /** The ids in the order added, or null when there were more than maxIds. */
  public List<String> ids() {
    return ids;
  }

  /** A store time the databases keep exactly: PostgreSQL timestamps have microseconds. */
  public static Instant now(Clock clock) {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }
}
