package com.acme.person.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.UUID;
import org.h2.engine.Constants;
import org.junit.jupiter.api.Test;

/** No write of the store pays for H2's statistics (ANALYZE_AUTO=0; why: H2Options). */
class H2OptionsTest {

  @Test
  void noWriteAnalyzesItsTable() throws Exception {
    assertThat(nameSelectivityAfterWrites(true)).as("NAME's selectivity: computed only if a commit analyzed the table")
        .isEqualTo(Constants.SELECTIVITY_DEFAULT);
  }

  @Test
  void withoutTheStoresSettingsTheSameWritesAnalyzeIt() throws Exception {
    // The control: H2 as it comes analyzes the table during these writes, so the test above
    // passes because of the setting, not because these writes never reach H2's threshold.
    assertThat(nameSelectivityAfterWrites(false)).isNotEqualTo(Constants.SELECTIVITY_DEFAULT);
  }

  /** 4,100 changes, past H2's first threshold (2,000), committed 100 at a time. */
  private static int nameSelectivityAfterWrites(boolean storeSettings) throws Exception {
    try (HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl("jdbc:h2:mem:h2-options-" + UUID.randomUUID());
      if (storeSettings) {
        new H2Options(1024).postProcessBeforeInitialization(dataSource, "dataSource");
      }
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE t (seq BIGINT NOT NULL PRIMARY KEY, name VARCHAR NOT NULL)");
        for (int i = 0; i < 41; i++) {
          statement.execute("INSERT INTO t SELECT X, 'name ' || X FROM SYSTEM_RANGE(" + (i * 100 + 1) + ", " + (i * 100 + 100) + ")");
        }
        try (ResultSet rs = statement.executeQuery(
            "SELECT SELECTIVITY FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'T' AND COLUMN_NAME = 'NAME'")) {
          assertThat(rs.next()).isTrue();
          return rs.getInt(1);
        }
      }
    }
  }
}
