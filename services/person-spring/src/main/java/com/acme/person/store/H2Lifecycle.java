package com.acme.person.store;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The embedded H2 store's life: at start-up, after a stop that was not clean, it builds the
 * unique indexes anew (UniqueIndexes); it inserts again what the journal holds (people
 * acknowledged before a crash that H2 had not written), reads every row — which builds the name
 * index and finds a damaged file before anything is served from it — and starts the journal;
 * after H2 closed itself on a failed write it reopens the database and does both again; at a
 * clean stop it has H2 write everything, empties the journal and says so (CleanStop).
 */
final class H2Lifecycle {
  private static final Logger log = LoggerFactory.getLogger(H2Lifecycle.class);
  /** How often the journal is rotated (and H2 made to write everything). */
  private static final long ROTATE_EVERY_MILLIS = 2_000;
  private static final int REPLAY_BATCH = 500;
  /** The exit status when H2 can never be reopened in this process (sysexits' EX_SOFTWARE). */
  static final int EXIT_NEVER_CLOSED = 70;
  /** H2's "File corrupted while reading record". */
  private static final int H2_FILE_CORRUPTED = 90030;

  private final DataSource dataSource;
  private final JdbcTemplate jdbc;
  private final StoreKind kind;
  private final NameIndex index;
  private final Sequencer sequencer;
  private final IdentityAssigner identity;
  private final StoreFailures failures;
  private final boolean fsync;
  /** Ends the process with a status and no shutdown hooks: Runtime::halt (the tests record it). */
  private final java.util.function.IntConsumer halt;
  /** The largest person number in the store, found by its start-up scan. */
  private long largestSeq;
  private Journal journal;
  private H2Durability durability;
  private ScheduledExecutorService rotation;
  private CleanStop cleanStop;
  /** The last reopening's failure (as H2 raised it), and when a call may try again (System.nanoTime): guarded by this. */
  private RuntimeException lastFailure;
  private long retryAt;

  H2Lifecycle(DataSource dataSource, JdbcTemplate jdbc, StoreKind kind, NameIndex index, Sequencer sequencer,
      IdentityAssigner identity, StoreFailures failures, boolean fsync, java.util.function.IntConsumer halt) {
    this.dataSource = dataSource;
    this.jdbc = jdbc;
    this.kind = kind;
    this.index = index;
    this.sequencer = sequencer;
    this.identity = identity;
    this.failures = failures;
    this.fsync = fsync;
    this.halt = halt;
  }

  /** Replays, checks and indexes the store; returns what makes its commits durable. */
  Durability start() {
    long started = System.nanoTime();
    int replayed = 0;
    if (kind.file() != null) {
      cleanStop = new CleanStop(kind.file(), fsync);
      if (!cleanStop.take()) {
        rebuildUniqueIndexes("the last stop was not a clean one");
      } else if (!UniqueIndexes.readOnly(jdbc)) {
        // Cheap, and whatever a stop left: a constraint dropped by a rebuild that never added it back.
        for (UniqueIndexes.Unique added : UniqueIndexes.addMissing(jdbc)) {
          log.warn("person store: the unique constraint {} on {}.{} was missing; added again", added.kind(),
              added.table(), added.column());
        }
      }
      replayed = replay();
    }
    long people = scan();
    HighWaterMark mark = null;
    if (kind.file() != null) {
      mark = new HighWaterMark(kind.file());
      checkMark(mark);
    }
    if (kind.file() == null) {
      log.info("person store: H2 in memory, {} people; nothing survives a restart", people);
      return Durability.DATABASE;
    }
    Path journalFile = Journal.of(kind.file());
    try {
      journal = new Journal(journalFile);
    } catch (IOException e) {
      // A read-only folder: people are served, and every write is refused until the folder is
      // writable and the service restarts (an acknowledged write would have no journal).
      String reason = failures.io("opening the journal " + journalFile, e).getMessage();
      log.warn("person store: H2 file {}, {} people, served read-only: {}", kind.file(), people, reason);
      return new Durability() {
        @Override public void beforeWrite() {
          throw new StoreUnavailableException(reason, null);
        }
        @Override public void peopleCommitted(List<StoredPerson> stored) {
          beforeWrite();
        }
        @Override public void streamCommitted() {
          beforeWrite();
        }
        @Override public void barrier() {}
      };
    }
    // What H2 holds now — the tables of a new database, migrations applied at this start — is in
    // its file before the first write: after H2 closes itself, recover() reopens the file and
    // replays the journal into it, which needs the tables there (H2's own writer may not have
    // stored a new database yet: the reopened file was empty, and every write failed).
    jdbc.execute(fsync ? "CHECKPOINT SYNC" : "CHECKPOINT");
    try {
      mark.write(largestSeq, fsync);
    } catch (IOException e) {
      // An older mark only checks less; the next journal rotation writes it again.
      log.warn("person store: writing {} failed, will try again: {}", mark.file(), e.toString());
    }
    durability = new H2Durability(jdbc, journal, fsync, failures, this::recover, mark);
    rotation = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "person-journal");
      t.setDaemon(true);
      return t;
    });
    rotation.scheduleWithFixedDelay(this::rotate, ROTATE_EVERY_MILLIS, ROTATE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
    log.info("person store: H2 file {}, {} people ({} replayed from the journal), name index {} MB, in {} ms;"
            + " an acknowledged write survives a crash of this process{}",
        kind.file(), people, replayed, index.bytes() >> 20, (System.nanoTime() - started) / 1_000_000,
        fsync ? " and a power loss (STORE_FSYNC)" : ", not a power loss (STORE_FSYNC=false)");
    return durability;
  }

  /**
   * After H2 closed itself on a failed write, from a call: reopens the store (recoverNow), unless
   * an attempt failed less than a rotation ago; then the call gets that attempt's failure and the
   * rotation tries again. While a disk stays full, every write waited for an attempt of its own
   * (a rebuild of the unique indexes, seconds at a million people), one after the other.
   */
  synchronized void recover() {
    if (failures.needsRecovery() && lastFailure != null && System.nanoTime() - retryAt < 0) {
      throw failures.database("reopening the database", lastFailure); // its meaning, made anew
    }
    recoverNow();
  }

  /**
   * Opens H2 again from its file, puts back what the journal holds, and lets the store be used
   * again. Until that succeeds every call is refused.
   */
  private synchronized void recoverNow() {
    if (!failures.needsRecovery()) {
      lastFailure = null;
      return;
    }
    if (dataSource instanceof HikariDataSource hikari && hikari.getHikariPoolMXBean() != null) {
      // Connections to the closed database are dropped; the next one opens it again.
      hikari.getHikariPoolMXBean().softEvictConnections();
    }
    try {
      synchronized (journal) {
        rebuildUniqueIndexes("H2 closed itself on a failed write");
        int replayed = replay();
        durability.recovered();
        failures.recovered();
        lastFailure = null;
        log.warn("person store: reopened {} after a failed write and replayed {} people from the journal;"
            + " writes are accepted again", kind.file(), replayed);
      }
    } catch (RuntimeException e) {
      // Whichever thread meets it: calls also reopen, and may hold this lock before the rotation.
      if (StoreFailures.neverClosed(e)) {
        stopForGood(e);
      }
      lastFailure = e;
      retryAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROTATE_EVERY_MILLIS);
      throw failures.database("reopening the database", e);
    }
  }

  /**
   * At a clean stop, after every call has been answered: H2 writes everything. True if nothing
   * is left for the next start to mend; then markCleanStop() once H2 has closed its file.
   */
  boolean close() {
    if (rotation != null) {
      rotation.shutdownNow();
      try {
        // A recovery in progress finishes (or fails) before the store decides how it stops.
        rotation.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      if (durability == null) {
        return false;
      }
      if (failures.needsRecovery()) {
        log.warn("person store: stopping while H2 is closed after a failed write; the next start replays the journal");
        return false;
      }
      try {
        durability.close();
        return true;
      } catch (IOException | RuntimeException e) {
        log.warn("person store: the last checkpoint failed; the journal {} keeps what it held for the next start: {}",
            journal.file(), e.toString());
        return false;
      }
    }
  }

  /** After a clean close() and H2's own close: the next start needs to mend nothing (CleanStop). */
  void markCleanStop() {
    try {
      cleanStop.mark();
    } catch (IOException e) {
      // The next start takes this stop for a crash: it only builds the unique indexes anew.
      log.warn("person store: writing {} failed: {}", cleanStop.file(), e.toString());
    }
  }

  /**
   * Every few seconds: rotates the journal — or, when H2 closed itself, reopens it, so that the
   * store recovers without waiting for a call to find it closed. Nothing thrown here may end the
   * schedule (a scheduled task that throws is never run again).
   */
  private void rotate() {
    try {
      if (failures.needsRecovery()) {
        recoverNow();
      } else {
        durability.rotate();
      }
    } catch (RuntimeException | OutOfMemoryError e) {
      log.warn("person store: {} failed, will try again: {}",
          failures.needsRecovery() ? "reopening the database" : "rotating the journal", e.toString());
    }
  }

  /**
   * H2 cannot be opened again in this process (StoreFailures.neverClosed), so every call would be
   * refused for as long as it runs: it ends at once, as a crash would, so that whatever runs it
   * (Kubernetes, a supervisor) starts it again, and the start replays the journal — every
   * acknowledged person is kept, as after a SIGKILL. An orderly stop cannot work here: it would
   * wait on the same H2.
   */
  private void stopForGood(Throwable e) {
    if (rotation != null && rotation.isShutdown()) {
      // A stop has begun (close() ends the rotation first): it ends the process itself.
      log.warn("person store: H2 cannot be reopened ({}); the stop under way ends the process", e.toString());
      return;
    }
    log.error("person store: H2 cannot be reopened: the instance that closed itself after a failed write never"
        + " finished closing ({}); no call can be served until the process starts again, so it stops now"
        + " (exit {}); the next start replays the journal {}", e.toString(), EXIT_NEVER_CLOSED, journal.file());
    halt.accept(EXIT_NEVER_CLOSED);
  }

  private void rebuildUniqueIndexes(String why) {
    if (UniqueIndexes.readOnly(jdbc)) {
      log.info("person store: {}, but H2 is read-only: its unique indexes are built anew at the first start"
          + " on a writable folder", why);
      return;
    }
    long started = System.nanoTime();
    UniqueIndexes.rebuild(jdbc);
    log.info("person store: {}: built its {} unique indexes anew in {} ms (a crash can leave entries in them"
        + " that H2 would take for a write in progress for ever)", why, UniqueIndexes.ALL.size(),
        (System.nanoTime() - started) / 1_000_000);
  }

  /** Inserts again every person the journal files hold, then empties them. */
  private int replay() {
    Path journalFile = Journal.of(kind.file());
    List<Path> files = Journal.existing(journalFile);
    int replayed = 0;
    long bytes = 0;
    for (Path file : files) {
      JournalReader.Contents contents;
      try {
        contents = JournalReader.read(file);
      } catch (IOException e) {
        throw failures.io("reading the journal " + file, e);
      }
      if (contents.torn()) {
        log.warn("person store: the journal {} ends with a write cut short at byte {} ({} bytes, never acknowledged);"
            + " ignored", file, contents.end(), contents.size() - contents.end());
      }
      bytes += contents.size();
      List<StoredPerson> people = contents.people();
      for (int from = 0; from < people.size(); from += REPLAY_BATCH) {
        merge(people.subList(from, Math.min(people.size(), from + REPLAY_BATCH)));
      }
      replayed += people.size();
    }
    // Empty journals (a clean stop leaves one) need nothing: not even a writable folder.
    if (bytes > 0) {
      jdbc.execute(fsync ? "CHECKPOINT SYNC" : "CHECKPOINT");
      try {
        for (Path file : files) {
          if (journal != null && file.equals(journal.file())) {
            journal.clear();
          } else {
            Files.deleteIfExists(file);
          }
        }
      } catch (IOException e) {
        throw failures.io("emptying the journal", e);
      }
    }
    return replayed;
  }

  /** Puts people back as they were stored (same seq, id, created_at), unless they are there. */
  private void merge(List<StoredPerson> people) {
    jdbc.execute((java.sql.Connection c) -> {
      try (var person = c.prepareStatement("MERGE INTO person (seq, id, name, age, city, zip_code, hobbies, created_at)"
              + " KEY (seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
          var request = c.prepareStatement("MERGE INTO register_person_request (request_id, request_hash, person_id)"
              + " KEY (request_id) VALUES (?, ?, ?)")) {
        boolean requests = false;
        for (StoredPerson s : people) {
          var p = s.person();
          person.setLong(1, s.seq());
          person.setObject(2, UUID.fromString(p.id()));
          person.setString(3, p.name());
          person.setInt(4, p.age());
          person.setString(5, p.address() == null ? null : p.address().city());
          person.setString(6, p.address() == null ? null : p.address().zipCode());
          person.setArray(7, c.createArrayOf("VARCHAR", p.hobbies().toArray()));
          person.setObject(8, p.createdAt().atOffset(ZoneOffset.UTC));
          person.addBatch();
          if (s.requestId() != null) {
            request.setObject(1, UUID.fromString(s.requestId()));
            request.setBytes(2, PersonRows.bytes(s.requestHash()));
            request.setObject(3, UUID.fromString(p.id()));
            request.addBatch();
            requests = true;
          }
        }
        person.executeBatch();
        if (requests) {
          request.executeBatch();
        }
      }
      return null;
    });
  }

  /**
   * Reads every row of the store: the people into the name index (and the largest seq and
   * created_at, where new ones start), the request records to find damage in them too. A page
   * H2 cannot read means a damaged file: the service refuses to start rather than serve it.
   */
  private long scan() {
    long[] count = {0};
    long[] maxSeq = {0};
    Instant[] newest = {Instant.EPOCH};
    try {
      jdbc.query("SELECT seq, name, created_at FROM person ORDER BY seq", rs -> {
        long seq = rs.getLong(1);
        index.add(seq, rs.getString(2));
        maxSeq[0] = seq;
        Instant created = rs.getObject(3, OffsetDateTime.class).toInstant();
        if (created.isAfter(newest[0])) {
          newest[0] = created;
        }
        count[0]++;
      });
      jdbc.query("SELECT request_id, request_hash, person_id FROM register_person_request", rs -> {});
      jdbc.query("SELECT request_id, request_hash, person_count, ids FROM register_people_request", rs -> {});
    } catch (DataAccessException e) {
      if (corrupted(e) && kind.file() != null) {
        throw new StoreDamagedException(kind.file(), "H2 cannot read it (" + rootMessage(e) + ")", e);
      }
      throw e;
    }
    largestSeq = maxSeq[0];
    sequencer.startAfter(maxSeq[0]);
    identity.startAfter(newest[0]);
    return count[0];
  }

  /** Fewer people than the file is known to have held: H2 opened an older or emptied file. */
  private void checkMark(HighWaterMark mark) {
    long known;
    try {
      known = mark.read();
    } catch (IOException e) {
      throw new StoreDamagedException(mark.file(), e.getMessage(), e);
    }
    if (largestSeq < known) {
      throw new StoreDamagedException(kind.file(), "it holds people up to number " + largestSeq
          + ", but it had been written with people up to number " + known + " (" + mark.file().getFileName()
          + "): pages of it were lost", null);
    }
  }

  static boolean corrupted(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getErrorCode() == H2_FILE_CORRUPTED) {
        return true;
      }
      if (String.valueOf(t.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("corrupt")) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String message = String.valueOf(root.getMessage());
    return message.length() > 200 ? message.substring(0, 200) + "…" : message;
  }
}
