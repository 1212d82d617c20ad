package com.acme.person.store;

import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The embedded store's unique indexes, built anew after a stop that was not clean.
 *
 * <p>Why: a process killed while H2 (2.4.240) was writing its pages can leave in a unique index
 * an entry of a transaction whose undo record never reached the file. No transaction owns it
 * and no read sees it, but H2's uniqueness check takes it for another transaction's insert in
 * progress and waits for that transaction until its lock timeout, again and again ("Timeout
 * trying to lock table"): putting that person back from the journal fails on every start, so
 * the store never starts again, and a client retrying that request_id fails for ever (the
 * crash suite's SIGKILL found it about once in twenty-five kills). An index H2 builds anew holds
 * only the rows it can see; the stale entries go with the old index. (A table's own row map,
 * person's seq, mends such entries itself.)
 *
 * <p>The list is the unique constraints H2 keeps in an index of their own. It is written out
 * here, not read from the schema, so that a constraint dropped and not yet added back when the
 * process died is added back by the next start (addMissing, at every start). StoreRestartTest
 * holds it to the migrated schema.
 */
final class UniqueIndexes {
  /** One unique constraint: its table, its kind (UNIQUE or PRIMARY KEY), its one column, its name if added here. */
  record Unique(String table, String kind, String column, String name) {}

  static final List<Unique> ALL = List.of(
      new Unique("PERSON", "UNIQUE", "ID", "PERSON_ID"),
      new Unique("REGISTER_PERSON_REQUEST", "PRIMARY KEY", "REQUEST_ID", "REGISTER_PERSON_REQUEST_PK"),
      new Unique("REGISTER_PEOPLE_REQUEST", "PRIMARY KEY", "REQUEST_ID", "REGISTER_PEOPLE_REQUEST_PK"));

  private UniqueIndexes() {}

  /** H2 cannot write (a read-only folder): nothing can be rebuilt, and nothing stale can get in the way. */
  static boolean readOnly(JdbcTemplate jdbc) {
    return Boolean.TRUE.equals(jdbc.queryForObject("SELECT READONLY()", Boolean.class));
  }

  /** Drops every constraint of ALL and adds it again, under the name it had. */
  static void rebuild(JdbcTemplate jdbc) {
    for (Unique u : ALL) {
      List<String> names = existing(jdbc, u);
      for (String old : names) {
        jdbc.execute("ALTER TABLE " + u.table() + " DROP CONSTRAINT " + quoted(old));
      }
      add(jdbc, u, names.isEmpty() ? u.name() : names.get(0));
    }
  }

  /** Adds every constraint of ALL that is not there; returns those it added. */
  static List<Unique> addMissing(JdbcTemplate jdbc) {
    List<Unique> added = new ArrayList<>();
    for (Unique u : ALL) {
      if (existing(jdbc, u).isEmpty()) {
        add(jdbc, u, u.name());
        added.add(u);
      }
    }
    return added;
  }

  /** The names of u's constraints in the schema: of its kind, on its table, on its column alone. */
  private static List<String> existing(JdbcTemplate jdbc, Unique u) {
    return jdbc.queryForList("SELECT tc.CONSTRAINT_NAME FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc"
            + " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA"
            + " AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
            + " WHERE tc.TABLE_SCHEMA = SCHEMA() AND tc.TABLE_NAME = ? AND tc.CONSTRAINT_TYPE = ? AND k.COLUMN_NAME = ?"
            + " AND (SELECT COUNT(*) FROM INFORMATION_SCHEMA.KEY_COLUMN_USAGE c WHERE c.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA"
            + " AND c.CONSTRAINT_NAME = tc.CONSTRAINT_NAME) = 1",
        String.class, u.table(), u.kind(), u.column());
  }

  private static void add(JdbcTemplate jdbc, Unique u, String name) {
    jdbc.execute("ALTER TABLE " + u.table() + " ADD CONSTRAINT " + quoted(name) + " " + u.kind() + " (" + u.column() + ")");
  }

  private static String quoted(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }
}
