package com.acme.person.store;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a failed write of the store means, said once in the log and to the caller in the
 * contract's terms: a full disk is RESOURCE_EXHAUSTED (StoreFullException), a read-only folder
 * or a database that closed itself after a failed write is UNAVAILABLE
 * (StoreUnavailableException). Nothing is half-written either way: the transaction rolled back,
 * or committed but is not answered OK. When H2 closed itself (it does after a write fails), the
 * store must be reopened before it is used again: {@link #needsRecovery}. Anything else is left
 * as it is (ErrorMapper makes it INTERNAL).
 */
final class StoreFailures {
  private static final Logger log = LoggerFactory.getLogger(StoreFailures.class);
  /** H2: "The database has been closed", "Database is already closed". */
  private static final int H2_CLOSED = 90098;
  private static final int H2_CLOSED_AT_SHUTDOWN = 90121;
  private static final int H2_READ_ONLY = 90097;
  private static final int H2_GENERAL_ERROR = 50000;
  /** H2: "Database may be already in use", which it also says when an earlier instance never closed. */
  private static final int H2_ALREADY_OPEN = 90020;
  /** PostgreSQL's SQLSTATE for a full disk. */
  private static final String PG_DISK_FULL = "53100";
  /** The same failure is logged at most this often (a failing disk fails every call). */
  private static final long LOG_EVERY_NANOS = 10_000_000_000L;

  private final Path folder;
  private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();
  private volatile boolean needsRecovery;

  /** folder is where the embedded store keeps its files (null for PostgreSQL). */
  StoreFailures(Path folder) {
    this.folder = folder;
  }

  boolean needsRecovery() {
    return needsRecovery;
  }

  void recovered() {
    needsRecovery = false;
  }

  /** A file operation of the store failed while doing what doing says. */
  RuntimeException io(String doing, IOException e) {
    if (noSpace(e)) {
      return full(doing, e);
    }
    if (readOnly(e)) {
      return readOnly(doing, e);
    }
    warn("io", "person store: {} failed: {}; writes are refused (UNAVAILABLE) until it succeeds", doing, e.toString());
    return new StoreUnavailableException("the store could not write; retry later", e);
  }

  /** A database operation failed while doing what doing says: e, or what it means. */
  RuntimeException database(String doing, RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException io && noSpace(io)) {
        if (closedDatabase(e)) {
          needsRecovery = true;
        }
        return full(doing, e);
      }
      if (t instanceof SQLException sql) {
        if (PG_DISK_FULL.equals(sql.getSQLState())) {
          return full(doing, e);
        }
        if (sql.getErrorCode() == H2_READ_ONLY) {
          return readOnly(doing, e);
        }
        if (sql.getErrorCode() == H2_CLOSED || sql.getErrorCode() == H2_CLOSED_AT_SHUTDOWN || storePanicked(sql)) {
          needsRecovery = true;
          // With the failure's stack: where H2's storage failed is what says how to avoid it.
          warn("closed", "person store: the database closed itself after a failed write ({}); it is reopened"
              + " and its journal replayed before the next call", rootMessage(e), e);
          return new StoreUnavailableException("the store is recovering from a failed write; retry later", e);
        }
      }
      String message = String.valueOf(t.getMessage());
      if (message.contains("No space left on device")) {
        needsRecovery |= message.contains("MVStoreException");
        return full(doing, e);
      }
    }
    return e;
  }

  private RuntimeException full(String doing, Exception e) {
    warn("full", "person store: no space left on the device{} while {}; writes are refused (RESOURCE_EXHAUSTED)"
        + " until space returns, nothing half-written is kept", where(), doing);
    return new StoreFullException("the store's disk is full; retry later", e);
  }

  private RuntimeException readOnly(String doing, Exception e) {
    warn("read-only", "person store: the data folder{} is read-only ({} failed); writes are refused (UNAVAILABLE)"
        + " until it is writable again", where(), doing);
    return new StoreUnavailableException("the store's data folder is read-only; retry later", e);
  }

  private String where() {
    return folder == null ? "" : " of " + folder;
  }

  /**
   * H2's storage failed under it (an MVStoreException: a write or checkpoint that could not get
   * memory, for one) — H2 closes the database then, and says so only from the next statement on.
   */
  private static boolean storePanicked(SQLException e) {
    return e.getErrorCode() == H2_GENERAL_ERROR && closedDatabase(e);
  }

  /**
   * Whether reopening H2 failed because the instance that closed itself never finished closing.
   * H2 2.4 waits a minute for it, then refuses; it never finishes when the store's writer died
   * under a chunk (its serialization thread then waits for that chunk for ever, at full CPU), so
   * no reopening in this process can succeed.
   */
  static boolean neverClosed(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getErrorCode() == H2_ALREADY_OPEN
          && String.valueOf(sql.getMessage()).contains("Waited for database closing")) {
        return true;
      }
    }
    return false;
  }

  private static boolean closedDatabase(Throwable e) {
    return String.valueOf(e.getMessage()).contains("MVStoreException");
  }

  private static boolean noSpace(IOException e) {
    return String.valueOf(e.getMessage()).contains("No space left on device");
  }

  private static boolean readOnly(IOException e) {
    return e instanceof AccessDeniedException || String.valueOf(e.getMessage()).contains("Read-only file system");
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.toString();
  }

  private void warn(String kind, String format, Object... args) {
    long now = System.nanoTime();
    Long last = lastLogged.get(kind);
    if (last == null || now - last > LOG_EVERY_NANOS) {
      lastLogged.put(kind, now);
      log.error(format, args);
    }
  }
}
