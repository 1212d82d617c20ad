package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a stream of people into batches: each person gets its id and created_at, and every
 * batchSize people are handed to the sink (a JDBC batch insert) and forgotten. So a stream of
 * any length holds at most batchSize people, plus at most maxIds ids for the response.
 * Not thread-safe: one writer belongs to one stream's worker.
 */
public final class PeopleBatchWriter {

  /** Where full batches go, with the position in the stream of each batch's first person. */
  @FunctionalInterface
  public interface Sink {
    void write(List<PersonDto> batch, long firstPosition);
  }

  private final int batchSize;
  private final int maxIds;
  private final Sink sink;
  private final IdentityAssigner identity;
  private List<PersonDto> batch;
  private List<String> ids = new ArrayList<>();
  private long count;
  private long written;

  public PeopleBatchWriter(int batchSize, int maxIds, Sink sink, IdentityAssigner identity) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1");
    }
    this.batchSize = batchSize;
    this.maxIds = maxIds;
    this.sink = sink;
    this.identity = identity;
    this.batch = new ArrayList<>(batchSize);
  }

  /** Adds one person; writes a batch when it is full. Returns the id the person was given. */
  public String add(PersonDto person) {
    PersonDto stored = identity.assign(person);
    batch.add(stored);
    count++;
    if (ids != null) {
      ids.add(stored.id());
      if (ids.size() > maxIds) {
        ids = null;
      }
    }
    if (batch.size() == batchSize) {
      flush();
    }
    return stored.id();
  }

  /** Writes what is left; call once at the end of the stream. */
  public void flush() {
    if (!batch.isEmpty()) {
      sink.write(batch, written);
      written += batch.size();
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
}
