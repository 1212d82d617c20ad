package com.acme.person.store;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * The settings of the embedded H2 database that the store relies on, added to its JDBC URL
 * whatever DB_URL says (an operator's URL for H2 rarely carries them):
 *
 * <ul>
 *   <li>DB_CLOSE_ON_EXIT=FALSE: H2 would close the database from its own shutdown hook the moment
 *       SIGTERM arrives, under the calls the service is still finishing; the service closes it
 *       itself, after them (and after writing everything).
 *   <li>CACHE_SIZE: H2's page cache (16 MB by default) holds the pages a listing or a search
 *       reads; at a million people the person table is about 200 MB (person.store.cache-size).
 *   <li>ANALYZE_AUTO=0: otherwise H2 analyzes a table inside the commit of the write that makes
 *       its 2,000th change since the database opened (then the 6,000th, 14,000th, ...: the gap
 *       doubles), reading its first thousand rows whole, hobbies and all, while the registrations
 *       queued behind that commit (GroupCommit) wait: they stalled 4.2 s at the 2,000th person of
 *       1 MB (docs/performance.md). The statistics buy nothing here: every index of the store is
 *       a unique one on one column, which H2 costs alike whatever they say, so each query and
 *       the request_id join plan the same with and without them.
 * </ul>
 */
final class H2Options implements BeanPostProcessor {
  private final int cacheSizeKb;

  H2Options(int cacheSizeKb) {
    this.cacheSizeKb = cacheSizeKb;
  }

  @Override
  public Object postProcessBeforeInitialization(Object bean, String beanName) {
    if (bean instanceof HikariDataSource hikari && hikari.getJdbcUrl() != null
        && hikari.getJdbcUrl().startsWith("jdbc:h2:")) {
      String url = with(hikari.getJdbcUrl(), "DB_CLOSE_ON_EXIT", "FALSE");
      url = with(url, "CACHE_SIZE", Integer.toString(cacheSizeKb));
      hikari.setJdbcUrl(with(url, "ANALYZE_AUTO", "0"));
    }
    return bean;
  }

  /** url with ;NAME=value added, unless it names the setting itself. */
  static String with(String url, String name, String value) {
    return url.toUpperCase(java.util.Locale.ROOT).contains(";" + name + "=") ? url : url + ";" + name + "=" + value;
  }
}
