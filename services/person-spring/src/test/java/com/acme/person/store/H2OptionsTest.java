package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * H2 left to itself analyzes a table inside the commit of the write that makes its 2,000th
 * change since the database opened (then the 4,000th, the 8,000th, ...), reading the table's
 * first thousand rows whole while every other write waits: 4.2 s at the 2,000th person of 1 MB.
 * The store's settings turn that off, so a write never pays for statistics (docs/performance.md).
 */
class H2OptionsTest {

  /** H2's selectivity of a column nobody analyzed (org.h2.engine.Constants.SELECTIVITY_DEFAULT). */
  private static final int NOT_ANALYZED = 50;

  @Test
  void noWriteAnalyzesItsTable() throws Exception {
    try (HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl("jdbc:h2:mem:h2-options-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
      new H2Options(1024).postProcessBeforeInitialization(dataSource, "dataSource");
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE t (seq BIGINT NOT NULL PRIMARY KEY, name VARCHAR NOT NULL)");
        // 4,100 changes: past H2's first two thresholds, each committed on its own.
        for (int i = 0; i < 41; i++) {
          statement.execute("INSERT INTO t SELECT X, 'name ' || X FROM SYSTEM_RANGE(" + (i * 100 + 1) + ", " + (i * 100 + 100) + ")");
        }
        try (ResultSet rs = statement.executeQuery(
            "SELECT SELECTIVITY FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'T' AND COLUMN_NAME = 'NAME'")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).as("NAME's selectivity: computed only if a commit analyzed the table").isEqualTo(NOT_ANALYZED);
        }
      }
    }
  }
}
