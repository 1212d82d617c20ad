package com.acme.person.store;

import com.zaxxer.hikari.HikariDataSource;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store, put together for the database the service runs on (StoreKind): the embedded H2
 * with its seq-keyed pages, in-memory name index and journal, or PostgreSQL with its trigram
 * index and commits that are durable as they return.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StoreProperties.class)
public class StoreConfig {
  private static final Logger log = LoggerFactory.getLogger(StoreConfig.class);

  /** Registered before the data source is made, so its URL gets the settings first. */
  @Bean
  static H2Options h2Options(Environment environment) {
    return new H2Options(environment.getProperty("person.store.cache-size", Integer.class, 65536));
  }

  @Bean
  StoreKind storeKind(DataSource dataSource) throws java.sql.SQLException {
    if (dataSource instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null) {
      return StoreKind.of(hikari.getJdbcUrl());
    }
    try (var c = dataSource.getConnection()) {
      return StoreKind.of(c.getMetaData().getURL());
    }
  }

  @Bean
  StoreFailures storeFailures(StoreKind kind) {
    return new StoreFailures(kind.file() == null ? null : kind.file().getParent());
  }

  @Bean
  Store store(DataSource dataSource, JdbcTemplate jdbc, TransactionTemplate tx, StoreKind kind,
      IdentityAssigner identity, StoreFailures failures, StoreProperties properties) {
    return new Store(dataSource, jdbc, tx, kind, identity, failures, properties);
  }

  @Bean
  PersonRepository personRepository(Store store) {
    return store.repository;
  }

  @Bean
  PersonStore personStore(Store store, PersonRepository repository, TransactionTemplate tx, StoreFailures failures,
      StoreProperties properties) {
    Durability durability = store.start();
    GroupCommit groups = new GroupCommit(repository, tx, durability, properties.groupSize(), properties.groupChars());
    return new PersonStore(repository, tx, groups, durability, failures);
  }

  @Bean
  PageTokenKey pageTokenKey(JdbcTemplate jdbc) {
    return new PageTokenKey(jdbc.queryForObject("SELECT secret FROM page_token_key WHERE id = 1", byte[].class));
  }

  /**
   * The parts of the store for one database; closed after every call has been answered (the
   * gRPC and REST servers stop first), which writes everything and closes the database.
   */
  static final class Store implements DisposableBean {
    private final DataSource dataSource;
    private final StoreKind kind;
    private final JdbcTemplate jdbc;
    private final NameIndex index;
    private final Sequencer sequencer;
    private final IdentityAssigner identity;
    private final StoreFailures failures;
    private final StoreProperties properties;
    final PersonRepository repository;
    private H2Lifecycle h2;

    Store(DataSource dataSource, JdbcTemplate jdbc, TransactionTemplate tx, StoreKind kind, IdentityAssigner identity,
        StoreFailures failures, StoreProperties properties) {
      this.dataSource = dataSource;
      this.kind = kind;
      this.jdbc = jdbc;
      this.identity = identity;
      this.failures = failures;
      this.properties = properties;
      this.index = kind.h2() ? new NameIndex() : null;
      this.sequencer = new Sequencer(identity, index);
      PersonPages pages = kind.h2()
          ? new H2PersonPages(jdbc, index)
          : new SqlPersonPages(new NamedParameterJdbcTemplate(jdbc));
      this.repository = new PersonRepository(jdbc, kind, sequencer, pages);
    }

    /** Readies the store (the embedded one replays its journal, checks and indexes its file). */
    Durability start() {
      if (kind.h2()) {
        h2 = new H2Lifecycle(dataSource, jdbc, kind, index, sequencer, identity, failures, properties.fsync(),
            Runtime.getRuntime()::halt);
        return h2.start();
      }
      java.sql.Timestamp newest = jdbc.queryForObject("SELECT MAX(created_at) FROM person", java.sql.Timestamp.class);
      if (newest != null) {
        identity.startAfter(newest.toInstant());
      }
      log.info("person store: PostgreSQL; an acknowledged write is committed by PostgreSQL first"
          + " (synchronous_commit on: it survives a power loss when the server's fsync is on)");
      return Durability.DATABASE;
    }

    @Override
    public void destroy() {
      boolean clean = h2 != null && h2.close();
      if (dataSource instanceof HikariDataSource hikari) {
        hikari.close();
      }
      if (clean) {
        // H2 closed its file with the last connection: only now may the next start trust it.
        h2.markCleanStop();
      }
      log.info("person store closed{}", kind.file() == null ? ""
          : clean ? ": everything is written to " + kind.file()
          : "; the next start puts back what the journal holds and builds the unique indexes anew");
    }
  }
}
