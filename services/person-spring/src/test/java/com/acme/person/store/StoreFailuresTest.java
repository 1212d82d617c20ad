package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.h2.message.DbException;
import org.h2.mvstore.DataUtils;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.UncategorizedSQLException;

/**
 * What a failure of H2's own storage means: H2 closes the database when its store fails under a
 * write or checkpoint (MVStoreException), and says so ("The database has been closed") only from
 * the next statement on. The write that met the failure is refused as retryable and the store is
 * marked for reopening — before, it was INTERNAL and nothing reopened the database until a later
 * statement found it closed (the 1 MB load of docs/performance.md: direct memory exhausted).
 */
class StoreFailuresTest {

  @Test
  void aWriteThatMetAFailureOfH2sStoreIsRetryableAndReopensTheStore() {
    // As H2 2.4 raises it: the commit of a write whose chunk could not get direct memory.
    var storeFailed = DbException.convert(DataUtils.newMVStoreException(DataUtils.ERROR_WRITING_FAILED,
        "Writing failed", new OutOfMemoryError("Cannot reserve 7348224 bytes of direct buffer memory")));
    var commitFailed = new UncategorizedSQLException("commit", "COMMIT", storeFailed.getSQLException());
    StoreFailures failures = new StoreFailures(null);

    RuntimeException meaning = failures.database("storing a person", commitFailed);

    assertThat(meaning).isInstanceOf(StoreUnavailableException.class);
    assertThat(failures.needsRecovery()).isTrue();
  }

  @Test
  void anOrdinaryFailureIsLeftAsItIs() {
    var notNull = new UncategorizedSQLException("insert", "INSERT", DbException.get(
        org.h2.api.ErrorCode.NULL_NOT_ALLOWED, "NAME").getSQLException());
    StoreFailures failures = new StoreFailures(null);

    assertThat(failures.database("storing a person", notNull)).isSameAs(notNull);
    assertThat(failures.needsRecovery()).isFalse();
  }

  @Test
  void aReopeningRefusedBecauseTheOldInstanceNeverClosedIsToldApart() {
    // As a reopening met it after H2's writer died under a 115 MB chunk (make bench-scenarios,
    // 2026-11-27): Hikari could not connect, H2 having waited a minute for the old instance.
    var neverClosed = DbException.get(org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1,
        "Waited for database closing longer than 1 minute").getSQLException();
    var reopening = new org.springframework.jdbc.CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
        new java.sql.SQLTransientConnectionException("HikariPool-1 - Connection is not available", neverClosed));
    // Another process holding the file is something a later attempt can get past.
    var otherProcess = new org.springframework.jdbc.CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
        DbException.get(org.h2.api.ErrorCode.DATABASE_ALREADY_OPEN_1, "/data/person.mv.db").getSQLException());

    assertThat(StoreFailures.neverClosed(reopening)).isTrue();
    assertThat(StoreFailures.neverClosed(otherProcess)).isFalse();
    assertThat(StoreFailures.neverClosed(new IllegalStateException("anything else"))).isFalse();
  }
}
