package com.acme.person.store;

import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Builds the embedded store's unique indexes anew after a stop that was not clean.
 *
 * <p>Why: a process killed while H2 (2.4.240) was writing its pages can leave in a unique index
 * an entry of a transaction whose undo record never reached the file. No transaction owns it
 * and no read sees it, but H2's uniqueness check takes it for another transaction's insert in
 * progress and waits for that transaction until its lock timeout, again and again ("Timeout
 * trying to lock table"): putting that person back from the journal fails on every start, so
 * the store never starts again, and a client retrying that request_id fails for ever (the
 * crash suite's SIGKILL found it about once in twenty-five kills). An index H2 builds anew holds
 * only the rows it can see; the stale entries go with the old index.
 *
 * <p>The list is the unique constraints H2 keeps in an index of their own: the tables' row keys
 * (person's seq) have none. It is written out here, not read from the schema, so that a crash
 * between dropping a constraint and adding it back loses nothing: the next start (again not a
 * clean one) adds it. UniqueIndexesTest holds it to the migrated schema.
 */
final class UniqueIndexes {
  /** One unique constraint: its table, its kind (UNIQUE or PRIMARY KEY) and its one column. */
  record Unique(String table, String kind, String column, String name) {}

  static final List<Unique> ALL = List.of(
      new Unique("PERSON", "UNIQUE", "ID", "PERSON_ID"),
      new Unique("REGISTER_PERSON_REQUEST", "PRIMARY KEY", "REQUEST_ID", "REGISTER_PERSON_REQUEST_PK"),
      new Unique("REGISTER_PEOPLE_REQUEST", "PRIMARY KEY", "REQUEST_ID", "REGISTER_PEOPLE_REQUEST_PK"));

  private UniqueIndexes() {}

  /** Drops and adds again every constraint of ALL (under the name it had); false if H2 is read-only. */
  static boolean rebuild(JdbcTemplate jdbc) {
    if (Boolean.TRUE.equals(jdbc.queryForObject("SELECT READONLY()", Boolean.class))) {
      // Nothing can be written, so the stale entries cannot get in the way until a start on a
      // writable folder (which is again not a clean one, and rebuilds).
      return false;
    }
    for (Unique u : ALL) {
      List<String> names = jdbc.queryForList("SELECT tc.CONSTRAINT_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc"
              + " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA"
              + " AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
              + " WHERE tc.TABLE_SCHEMA = SCHEMA() AND tc.TABLE_NAME = ? AND tc.CONSTRAINT_TYPE = ? AND k.COLUMN_NAME = ?",
          String.class, u.table(), u.kind(), u.column());
      String name = names.isEmpty() ? u.name() : names.get(0);
      for (String old : names) {
        jdbc.execute("ALTER TABLE " + u.table() + " DROP CONSTRAINT \"" + old + "\"");
      }
      jdbc.execute("ALTER TABLE " + u.table() + " ADD CONSTRAINT \"" + name + "\" " + u.kind() + " (" + u.column() + ")");
    }
    return true;
  }
}
