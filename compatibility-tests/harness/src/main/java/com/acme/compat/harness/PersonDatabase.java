package com.acme.compat.harness;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * person-spring's own database, opened from the host — its H2 file after the service stopped, or
 * the PostgreSQL its replicas share: the count of people comes from the rows, not from the
 * service's answers about them. The same SQL holds for both (the service's migrations give both
 * the same person table).
 */
final class PersonDatabase implements AutoCloseable {

  private final Connection connection;

  PersonDatabase(String jdbcUrl, String user, String password) throws SQLException {
    connection = DriverManager.getConnection(jdbcUrl, user, password);
  }

  /** The H2 file in dir, with the same credentials as the service's defaults (DB_USER sa, empty password). */
  static PersonDatabase h2(Path dir) throws SQLException {
    return new PersonDatabase("jdbc:h2:file:" + dir.resolve("person"), "sa", "");
  }

  /** Ids of the people whose name starts with prefix (ids are the primary key: no repeats). */
  Set<String> idsWithNamePrefix(String prefix) throws SQLException {
    try (PreparedStatement q = connection.prepareStatement("SELECT id FROM person WHERE name LIKE ? ESCAPE '!'")) {
      q.setString(1, literal(prefix) + "%");
      Set<String> ids = new HashSet<>();
      try (ResultSet rs = q.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
      }
      return ids;
    }
  }

  /** Rows whose name contains the text: used to prove aborted streams left nothing behind. */
  int countNameContaining(String text) throws SQLException {
    try (PreparedStatement q = connection.prepareStatement("SELECT COUNT(*) FROM person WHERE name LIKE ? ESCAPE '!'")) {
      q.setString(1, "%" + literal(text) + "%");
      try (ResultSet rs = q.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  int countAll() throws SQLException {
    try (PreparedStatement q = connection.prepareStatement("SELECT COUNT(*) FROM person");
        ResultSet rs = q.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  /** text as a LIKE pattern that matches only itself (escape character '!'). */
  private static String literal(String text) {
    return text.replace("!", "!!").replace("%", "!%").replace("_", "!_");
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
