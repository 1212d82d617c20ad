package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.message.DbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * When H2 closed itself and its old instance never finishes closing, no reopening in this process
 * can succeed: the store ends the process (exit 70) so that a restart replays the journal — unless
 * a stop is already under way, which ends the process itself. The reopening is made to meet H2's
 * own refusal ("Waited for database closing longer than 1 minute") without waiting the minute.
 */
class H2LifecycleStopTest {

  @Test
  void aReopeningThatCanNeverSucceedEndsTheProcessWithStatus70(@TempDir Path dir) {
    Store store = new Store(dir);
    store.lifecycle.start();
    store.h2ClosedAndNeverFinishes();

    assertThatThrownBy(store.lifecycle::recover).isInstanceOf(RuntimeException.class);

    // The journal's rotation may have tried (and halted) first: every attempt ends the process.
    assertThat(store.halts).isNotEmpty().containsOnly(H2Lifecycle.EXIT_NEVER_CLOSED);
    store.lifecycle.close();
  }

  @Test
  void aReopeningThatFailsOtherwiseIsTriedAgainLater(@TempDir Path dir) throws Exception {
    Store store = new Store(dir);
    store.lifecycle.start();
    store.source.refusal = DbException.get(org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1, "/data/person.mv.db")
        .getSQLException(); // another process holding the file: a later attempt can get past it
    store.failures.database("storing a person", closed());

    assertThatThrownBy(store.lifecycle::recover).isInstanceOf(RuntimeException.class);

    assertThat(store.halts).isEmpty();
    assertThat(store.failures.needsRecovery()).isTrue();
    int attempts = store.source.refused.get();
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (store.source.refused.get() == attempts && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(store.source.refused.get()).as("the rotation tries again").isGreaterThan(attempts);
    store.lifecycle.close();
  }

  @Test
  void aStopUnderWayIsLeftToEndTheProcess(@TempDir Path dir) {
    Store store = new Store(dir);
    store.lifecycle.start();
    store.h2ClosedAndNeverFinishes();
    assertThat(store.lifecycle.close()).as("a stop while H2 is closed leaves the journal to the next start").isFalse();
    // Before the stop began, the journal's rotation may have tried once (and rightly halted).
    int before = store.halts.size();

    assertThatThrownBy(store.lifecycle::recover).isInstanceOf(RuntimeException.class);

    assertThat(store.halts).hasSize(before);
  }

  @Test
  void whileReopeningKeepsFailingCallsDoNotEachTryAgain(@TempDir Path dir) throws Exception {
    // A disk that stays full: every reopening rebuilds the unique indexes and fails. Each write
    // waited for an attempt of its own (seconds at a million people), one after the other.
    Store store = new Store(dir);
    Durability durability = store.lifecycle.start();
    store.source.refusal = new SQLException("No space left on device");
    store.failures.database("storing a person", closed());

    for (int i = 0; i < 10; i++) {
      assertThatThrownBy(durability::beforeWrite).isInstanceOf(RuntimeException.class);
    }
    // The first write tries; the journal's rotation may have tried once as well.
    assertThat(store.source.refused.get()).isBetween(1, 2);

    store.source.refusal = null; // the disk has room again: the rotation reopens the store
    long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (store.failures.needsRecovery() && System.nanoTime() < until) {
      Thread.sleep(50);
    }
    assertThat(store.failures.needsRecovery()).as("reopened within 10 s").isFalse();
    durability.beforeWrite();
    store.lifecycle.close();
  }

  /** What H2 raises when a write finds the database closed after its store failed. */
  private static RuntimeException closed() {
    return new org.springframework.jdbc.UncategorizedSQLException("commit", "COMMIT",
        DbException.get(org.h2.api.ErrorCode.DATABASE_IS_CLOSED).getSQLException());
  }

  /** An embedded store on its own file, its exits recorded rather than taken. */
  private static final class Store {
    final RefusingDataSource source;
    final StoreFailures failures;
    final H2Lifecycle lifecycle;
    /** Written by the journal's rotation too. */
    final List<Integer> halts = new java.util.concurrent.CopyOnWriteArrayList<>();

    Store(Path dir) {
      JdbcDataSource h2 = new JdbcDataSource();
      h2.setURL("jdbc:h2:file:" + dir.resolve("person"));
      Flyway.configure().dataSource(h2)
          .locations("classpath:db/migration/common", "classpath:db/migration/h2")
          .load()
          .migrate();
      source = new RefusingDataSource(h2);
      JdbcTemplate jdbc = new JdbcTemplate(source);
      IdentityAssigner identity = new IdentityAssigner(Clock.systemUTC());
      NameIndex index = new NameIndex();
      failures = new StoreFailures(dir);
      lifecycle = new H2Lifecycle(source, jdbc, StoreKind.of(h2.getURL()), index, new Sequencer(identity, index),
          identity, failures, false, halts::add);
    }

    /** H2 closed itself on a failed write, and its old instance never finishes closing. */
    void h2ClosedAndNeverFinishes() {
      // Refusing first: a rotation between the two would otherwise reopen the store.
      source.refusal = DbException.get(org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1,
          "Waited for database closing longer than 1 minute").getSQLException();
      failures.database("storing a person", closed());
      assertThat(failures.needsRecovery()).isTrue();
    }
  }

  /** H2's data source, refusing every new connection as H2 does once refusal is set. */
  private static final class RefusingDataSource extends DelegatingDataSource {
    volatile SQLException refusal;
    final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();

    RefusingDataSource(DataSource h2) {
      super(h2);
    }

    @Override public Connection getConnection() throws SQLException {
      SQLException refusal = this.refusal;
      if (refusal != null) {
        refused.incrementAndGet();
        throw refusal;
      }
      return super.getConnection();
    }

    @Override public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }
  }
}
