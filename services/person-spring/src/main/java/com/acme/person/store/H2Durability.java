package com.acme.person.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What makes the embedded H2 store's commits survive a crash of the process. H2 commits in
 * memory and writes its file about every half second; so
 *
 * <ul>
 *   <li>a group of single registrations is appended to the journal (one write for the group)
 *       before it is answered — with fsync, the journal is also forced to the disk;
 *   <li>a RegisterPeople stream, one large commit, is written into H2's file at once
 *       (CHECKPOINT; with fsync, CHECKPOINT SYNC) before it is answered;
 *   <li>every few seconds the journal is rotated and H2 writes everything, so the journal only
 *       ever holds the last moments.
 * </ul>
 *
 * If a journal append or a checkpoint fails (a full disk), what H2 committed in memory is not
 * yet safe: nothing is answered OK until a checkpoint has written it.
 */
final class H2Durability implements Durability {
  private static final Logger log = LoggerFactory.getLogger(H2Durability.class);

  private final JdbcTemplate jdbc;
  private final Journal journal;
  private final boolean fsync;
  private final StoreFailures failures;
  private final Runnable recovery;
  private final HighWaterMark mark;
  /** Failed appends or checkpoints since the last good checkpoint. */
  private final AtomicInteger unsafe = new AtomicInteger();

  H2Durability(JdbcTemplate jdbc, Journal journal, boolean fsync, StoreFailures failures, Runnable recovery,
      HighWaterMark mark) {
    this.jdbc = jdbc;
    this.mark = mark;
    this.journal = journal;
    this.fsync = fsync;
    this.failures = failures;
    this.recovery = recovery;
  }

  @Override
  public void beforeWrite() {
    if (failures.needsRecovery()) {
      recovery.run();
    }
  }

  @Override
  public void peopleCommitted(List<StoredPerson> people) {
    if (unsafe.get() > 0) {
      // A checkpoint writes this group with everything else H2 holds.
      checkpoint();
      return;
    }
    if (people.isEmpty()) {
      return;
    }
    try {
      journal.append(JournalCodec.records(people), fsync);
    } catch (IOException e) {
      unsafe.incrementAndGet();
      throw failures.io("appending to the journal " + journal.file(), e);
    }
  }

  @Override
  public void streamCommitted() {
    checkpoint();
  }

  /** A stream's record is about to be answered again: it may have committed a moment ago. */
  @Override
  public void barrier() {
    checkpoint();
  }

  /**
   * Moves the journal aside, has H2 write everything, and deletes the part moved aside: what
   * it held is now in H2's file.
   */
  void rotate() {
    try {
      if (journal.rotate(fsync) || journal.hasOld()) {
        long written = largestSeq();
        checkpoint();
        mark.write(written, fsync);
        journal.dropOld();
      }
    } catch (IOException e) {
      log.warn("person store: rotating the journal {} failed, will try again: {}", journal.file(), e.toString());
    } catch (RuntimeException e) {
      // A database that closed itself is marked for reopening here too, not only by a write.
      RuntimeException meaning = failures.database("rotating the journal", e);
      log.warn("person store: rotating the journal {} failed, will try again: {}", journal.file(), meaning.toString());
    }
  }

  /** The database was reopened and the journal replayed: what H2 holds is safe again. */
  void recovered() {
    unsafe.set(0);
  }

  /** At a clean stop: H2 writes everything, and the journal is emptied. */
  void close() throws IOException {
    long written = largestSeq();
    checkpoint();
    mark.write(written, fsync);
    journal.clear();
    journal.close();
  }

  /** The largest person number committed so far: a checkpoint after this writes it to the file. */
  private long largestSeq() {
    Long seq = jdbc.queryForObject("SELECT COALESCE(MAX(seq), 0) FROM person", Long.class);
    return seq == null ? 0 : seq;
  }

  private void checkpoint() {
    int seen = unsafe.get();
    try {
      jdbc.execute(fsync ? "CHECKPOINT SYNC" : "CHECKPOINT");
    } catch (RuntimeException e) {
      unsafe.incrementAndGet();
      throw failures.database("writing the database file", e);
    }
    unsafe.compareAndSet(seen, 0);
  }
}
