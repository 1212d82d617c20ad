package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * PostgreSQL's pages: one query each, by keyset on the (created_at, id) index; name_contains is
 * LOWER(name) LIKE '%text%', which the trigram index (pg_trgm) serves for texts of three
 * characters or more, and the planner weighs against walking the (created_at, id) index.
 */
final class SqlPersonPages implements PersonPages {
  private final NamedParameterJdbcTemplate named;

  SqlPersonPages(NamedParameterJdbcTemplate named) {
    this.named = named;
  }

  @Override
  public List<PersonDto> find(PersonFilter filter, PageCursor after, int max) {
    StringBuilder sql = new StringBuilder("SELECT " + PersonRows.COLUMNS + " FROM person WHERE TRUE");
    MapSqlParameterSource params = new MapSqlParameterSource();
    if (filter.nameContains() != null && !filter.nameContains().isEmpty()) {
      sql.append(" AND LOWER(name) LIKE :pattern ESCAPE '\\'");
      params.addValue("pattern", "%" + likeEscape(filter.nameContains().toLowerCase(Locale.ROOT)) + "%");
    }
    if (filter.minAge() != null) {
      sql.append(" AND age >= :minAge");
      params.addValue("minAge", filter.minAge());
    }
    if (filter.maxAge() != null) {
      sql.append(" AND age <= :maxAge");
      params.addValue("maxAge", filter.maxAge());
    }
    if (after != null) {
      sql.append(" AND (created_at, id) > (:afterTime, :afterId)");
      params.addValue("afterTime", after.createdAt().atOffset(ZoneOffset.UTC));
      params.addValue("afterId", PersonRows.uuid(after.id()));
    }
    sql.append(" ORDER BY created_at, id LIMIT :max");
    params.addValue("max", max);
    if (after == null && filter.offset() > 0) {
      sql.append(" OFFSET :offset");
      params.addValue("offset", filter.offset());
    }
    return named.query(sql.toString(), params, (rs, n) -> PersonRows.person(rs));
  }

  private static String likeEscape(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
