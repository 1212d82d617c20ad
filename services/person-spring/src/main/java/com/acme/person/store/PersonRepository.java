package com.acme.person.store;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * People in the database, through plain JDBC: batch inserts for streams, keyset-paged reads
 * for ListPeople. Callers own the transactions.
 */
@Repository
public class PersonRepository {

  private static final String INSERT_PERSON =
      "INSERT INTO person (id, name, age, city, zip_code, created_at, request_id, request_hash,"
          + " stream_request_id, stream_position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String INSERT_HOBBY =
      "INSERT INTO person_hobby (person_id, position, hobby) VALUES (?, ?, ?)";
  private static final String COLUMNS = "id, name, age, city, zip_code, created_at";

  private final JdbcTemplate jdbc;
  private final NamedParameterJdbcTemplate named;

  public PersonRepository(JdbcTemplate jdbc) {
    this.jdbc = jdbc;
    this.named = new NamedParameterJdbcTemplate(jdbc);
  }

  /** Inserts one stored person (id and createdAt set), remembering the request it came from. */
  public void insert(PersonDto person, String requestId, String requestHash) {
    jdbc.update(INSERT_PERSON, personRow(person, requestId, requestHash, null, null));
    jdbc.batchUpdate(INSERT_HOBBY, hobbyRows(List.of(person)));
  }

  /**
   * Inserts stored people of a RegisterPeople stream with two JDBC batches: one for the people,
   * one for their hobbies. streamRequestId (null when the stream has none) and the position of
   * each person in the stream let a repeated stream be answered with the same ids.
   */
  public void insertBatch(List<PersonDto> people, String streamRequestId, long firstPosition) {
    List<Object[]> rows = new ArrayList<>(people.size());
    long position = firstPosition;
    for (PersonDto p : people) {
      rows.add(personRow(p, null, null, streamRequestId, streamRequestId == null ? null : position++));
    }
    jdbc.batchUpdate(INSERT_PERSON, rows);
    jdbc.batchUpdate(INSERT_HOBBY, hobbyRows(people));
  }

  /** Records a committed stream's request_id; DuplicateKeyException when it is taken. */
  public void insertStream(String requestId, StoredStream stream, Instant createdAt) {
    jdbc.update(
        "INSERT INTO register_people_request (request_id, request_hash, person_count, created_at)"
            + " VALUES (?, ?, ?, ?)",
        requestId, stream.requestHash(), stream.count(), createdAt.atOffset(ZoneOffset.UTC));
  }

  public Optional<StoredStream> findStream(String requestId) {
    return jdbc.query(
            "SELECT request_hash, person_count FROM register_people_request WHERE request_id = ?",
            (rs, n) -> new StoredStream(rs.getString(1), rs.getLong(2)),
            requestId)
        .stream()
        .findFirst();
  }

  /** The ids a stream stored, in the order it sent the people. */
  public List<String> streamIds(String requestId) {
    return jdbc.queryForList(
        "SELECT id FROM person WHERE stream_request_id = ? ORDER BY stream_position", String.class, requestId);
  }

  public Optional<PersonDto> findById(String id) {
    List<PersonDto> found =
        withHobbies(jdbc.query("SELECT " + COLUMNS + " FROM person WHERE id = ?", this::row, id));
    return found.stream().findFirst();
  }

  public Optional<StoredRequest> findByRequestId(String requestId) {
    List<Map.Entry<PersonDto, String>> found =
        jdbc.query(
            "SELECT " + COLUMNS + ", request_hash FROM person WHERE request_id = ?",
            (rs, n) -> Map.entry(row(rs, n), rs.getString("request_hash")),
            requestId);
    if (found.isEmpty()) {
      return Optional.empty();
    }
    PersonDto person = withHobbies(List.of(found.get(0).getKey())).get(0);
    return Optional.of(new StoredRequest(person, found.get(0).getValue()));
  }

  /**
   * At most max people matching the filter in (created_at, id) order: the first read of a page
   * skips filter.offset() rows, later reads continue after the cursor.
   */
  public List<PersonDto> findPage(PersonFilter filter, PageCursor after, int max) {
    StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM person WHERE 1 = 1");
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
      sql.append(" AND (created_at > :afterTime OR (created_at = :afterTime AND id > :afterId))");
      params.addValue("afterTime", after.createdAt().atOffset(ZoneOffset.UTC));
      params.addValue("afterId", after.id());
    }
    sql.append(" ORDER BY created_at, id LIMIT :max");
    params.addValue("max", max);
    if (after == null) {
      sql.append(" OFFSET :offset");
      params.addValue("offset", filter.offset());
    }
    return withHobbies(named.query(sql.toString(), params, this::row));
  }

  public long count() {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM person", Long.class);
    return n == null ? 0 : n;
  }

  private static Object[] personRow(
      PersonDto p, String requestId, String requestHash, String streamRequestId, Long streamPosition) {
    AddressDto a = p.address();
    return new Object[] {
      p.id(),
      p.name(),
      p.age(),
      a == null ? null : a.city(),
      a == null ? null : a.zipCode(),
      p.createdAt().atOffset(ZoneOffset.UTC),
      requestId,
      requestHash,
      streamRequestId,
      streamPosition
    };
  }

  private static List<Object[]> hobbyRows(List<PersonDto> people) {
    List<Object[]> rows = new ArrayList<>();
    for (PersonDto p : people) {
      for (int i = 0; i < p.hobbies().size(); i++) {
        rows.add(new Object[] {p.id(), i, p.hobbies().get(i)});
      }
    }
    return rows;
  }

  private PersonDto row(ResultSet rs, int rowNum) throws SQLException {
    String city = rs.getString("city");
    return new PersonDto(
        rs.getString("id"),
        rs.getString("name"),
        rs.getInt("age"),
        List.of(),
        city == null ? null : new AddressDto(city, rs.getString("zip_code")),
        rs.getObject("created_at", OffsetDateTime.class).toInstant());
  }

  /** Fills in the hobbies of people read without them, in one query. */
  private List<PersonDto> withHobbies(List<PersonDto> people) {
    if (people.isEmpty()) {
      return people;
    }
    Map<String, List<String>> hobbies = new HashMap<>();
    Map<String, PersonDto> byId = new LinkedHashMap<>();
    for (PersonDto p : people) {
      byId.put(p.id(), p);
    }
    named.query(
        "SELECT person_id, hobby FROM person_hobby WHERE person_id IN (:ids)"
            + " ORDER BY person_id, position",
        new MapSqlParameterSource("ids", byId.keySet()),
        (ResultSet rs) -> {
          hobbies.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
        });
    List<PersonDto> result = new ArrayList<>(people.size());
    for (PersonDto p : people) {
      result.add(
          new PersonDto(
              p.id(), p.name(), p.age(), hobbies.getOrDefault(p.id(), List.of()), p.address(),
              p.createdAt()));
    }
    return result;
  }

  private static String likeEscape(String text) {
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
  }
}
