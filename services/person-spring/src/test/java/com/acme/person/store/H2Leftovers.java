package com.acme.person.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.h2.engine.SessionLocal;
import org.h2.index.Index;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.db.MVSecondaryIndex;
import org.h2.result.SearchRow;
import org.h2.table.Column;
import org.h2.table.Table;
import org.h2.value.Value;
import org.h2.value.ValueNull;
import org.h2.value.ValueUuid;
import org.h2.value.VersionedValue;

/**
 * What a process killed while H2 wrote its pages can leave in the embedded store's file, made
 * on purpose (the crash suite's SIGKILL leaves it about once in twenty-five kills): an entry of
 * a unique index that belongs to a transaction whose undo record never reached the file. It is
 * written straight into the index's map, as H2's writer had stored it, with no undo record and
 * no transaction that owns it.
 */
public final class H2Leftovers {
  /** A transaction id no session holds when the store starts again. */
  private static final int DEAD_TRANSACTION = 77;
  /** H2's operation id: the transaction id above its 40-bit log id. */
  private static final int LOG_ID_BITS = 40;

  private H2Leftovers() {}

  /** Puts the stale entry (value → rowKey) into table's unique index on column, in data's person.mv.db. */
  public static void staleUniqueEntry(Path data, String table, String column, UUID value, long rowKey) throws Exception {
    try (Connection c = open(data)) {
      SessionLocal session = (SessionLocal) c.unwrap(JdbcConnection.class).getSession();
      Table t = session.getDatabase().getSchema("PUBLIC").findTableOrView(session, table);
      Column col = t.getColumn(column);
      MVSecondaryIndex index = null;
      for (Index i : t.getIndexes()) {
        if (i instanceof MVSecondaryIndex s && s.getIndexType().isUnique() && s.getColumns().length == 1
            && s.getColumns()[0] == col) {
          index = s;
        }
      }
      if (index == null) {
        throw new IllegalStateException("no unique index of its own on " + table + "." + column);
      }
      SearchRow key = index.getRowFactory().createRow();
      key.setValue(col.getColumnId(), ValueUuid.get(value.getMostSignificantBits(), value.getLeastSignificantBits()));
      key.setKey(rowKey);
      MVMap<SearchRow, VersionedValue<Value>> map = index.getMVMap();
      map.put(key, new VersionedValue<>() {
        @Override public boolean isCommitted() {
          return false;
        }
        @Override public long getOperationId() {
          return ((long) DEAD_TRANSACTION << LOG_ID_BITS) | 1;
        }
        @Override public Value getCurrentValue() {
          return ValueNull.INSTANCE;
        }
        @Override public Value getCommittedValue() {
          return null;
        }
      });
      c.createStatement().execute("CHECKPOINT");
    }
  }

  /** Runs one statement on data's store, as an operator (or a process that died halfway) would. */
  public static void execute(Path data, String sql) throws Exception {
    try (Connection c = open(data)) {
      c.createStatement().execute(sql);
    }
  }

  /** The unique constraints with an index of their own in data's store, as TABLE.COLUMN KIND. */
  public static List<String> uniqueIndexes(Path data) throws Exception {
    List<String> found = new ArrayList<>();
    try (Connection c = open(data);
        var rs = c.createStatement().executeQuery("SELECT tc.TABLE_NAME, k.COLUMN_NAME, tc.CONSTRAINT_TYPE"
            + " FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS tc"
            + " JOIN INFORMATION_SCHEMA.INDEXES i ON i.INDEX_SCHEMA = tc.INDEX_SCHEMA AND i.INDEX_NAME = tc.INDEX_NAME"
            + " JOIN INFORMATION_SCHEMA.KEY_COLUMN_USAGE k ON k.CONSTRAINT_SCHEMA = tc.CONSTRAINT_SCHEMA"
            + " AND k.CONSTRAINT_NAME = tc.CONSTRAINT_NAME"
            + " WHERE tc.TABLE_SCHEMA = 'PUBLIC' AND tc.CONSTRAINT_TYPE IN ('UNIQUE', 'PRIMARY KEY')"
            + " AND i.INDEX_CLASS = '" + MVSecondaryIndex.class.getName() + "' ORDER BY 1, 2")) {
      while (rs.next()) {
        found.add(rs.getString(1) + "." + rs.getString(2) + " " + rs.getString(3));
      }
    }
    return found;
  }

  /** The same for the constraints the store builds anew after a crash (UniqueIndexes). */
  public static List<String> rebuiltAfterACrash() {
    return UniqueIndexes.ALL.stream().map(u -> u.table() + "." + u.column() + " " + u.kind()).sorted().toList();
  }

  /** data's person.mv.db, opened as the service opens it. */
  private static Connection open(Path data) throws Exception {
    return DriverManager.getConnection("jdbc:h2:file:" + data.resolve("person") + ";DB_CLOSE_ON_EXIT=FALSE", "sa", "");
  }
}
