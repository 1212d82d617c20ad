package com.acme.person.store;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * People in the database, through plain JDBC: JDBC batches for every insert, the idempotency
 * records beside the people, and pages through {@link PersonPages}. Callers own the
 * transactions. The embedded H2 keys its person table by seq (see Sequencer); PostgreSQL by id.
 */
public class PersonRepository {

  private final JdbcTemplate jdbc;
  private final NamedParameterJdbcTemplate named;
  private final StoreKind kind;
  private final Sequencer sequencer;
  private final PersonPages pages;
  private final String insertPerson;

  PersonRepository(JdbcTemplate jdbc, StoreKind kind, Sequencer sequencer, PersonPages pages) {
    this.jdbc = jdbc;
    this.named = new NamedParameterJdbcTemplate(jdbc);
    this.kind = kind;
    this.sequencer = sequencer;
    this.pages = pages;
    this.insertPerson = kind.h2()
        ? "INSERT INTO person (seq, id, name, age, city, zip_code, hobbies, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        : "INSERT INTO person (id, name, age, city, zip_code, hobbies, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
  }

  /** Inserts one person (id set), remembering the request it came from; returns it as stored. */
  public PersonDto insert(PersonDto person, String requestId, String requestHash) {
    return insertAll(List.of(new NewPerson(person, requestId, requestHash))).get(0).person();
  }

  /**
   * Inserts people (ids set) with two JDBC batches — the request records of those that came
   * with a request_id, then the people — and returns them as stored (created_at stamped now).
   * The request records go first: a request_id stored before fails the insert
   * (DuplicateKeyException) before any person is numbered or put in the name index.
   */
  public List<StoredPerson> insertAll(List<NewPerson> people) {
    List<Object[]> requests = new ArrayList<>();
    for (int i = 0; i < people.size(); i++) {
      NewPerson p = people.get(i);
      if (p.requestId() != null) {
        requests.add(new Object[] {
          PersonRows.uuid(p.requestId()), PersonRows.bytes(p.requestHash()), PersonRows.uuid(p.person().id())
        });
      }
    }
    if (!requests.isEmpty()) {
      jdbc.batchUpdate(
          "INSERT INTO register_person_request (request_id, request_hash, person_id) VALUES (?, ?, ?)", requests);
    }
    List<PersonDto> plain = new ArrayList<>(people.size());
    people.forEach(p -> plain.add(p.person()));
    Sequencer.Stamped stamped = sequencer.stamp(plain);
    insertRows(stamped);
    List<StoredPerson> stored = new ArrayList<>(people.size());
    for (int i = 0; i < people.size(); i++) {
      NewPerson p = people.get(i);
      stored.add(new StoredPerson(stamped.seqs()[i], stamped.people().get(i), p.requestId(), p.requestHash()));
    }
    return stored;
  }

  /**
   * Inserts people of a RegisterPeople stream (ids set) with one JDBC batch. The stream's
   * request_id and the people's positions in it are kept by {@link #insertStream} at commit.
   */
  public void insertBatch(List<PersonDto> people, String streamRequestId, long firstPosition) {
    insertRows(sequencer.stamp(people));
  }

  /** Records a committed stream's request_id; DuplicateKeyException when it is taken. */
  public void insertStream(String requestId, StoredStream stream, Instant createdAt) {
    jdbc.update(connection -> {
      PreparedStatement ps = connection.prepareStatement(
          "INSERT INTO register_people_request (request_id, request_hash, person_count, ids, created_at)"
              + " VALUES (?, ?, ?, ?, ?)");
      ps.setObject(1, PersonRows.uuid(requestId));
      ps.setBytes(2, PersonRows.bytes(stream.requestHash()));
      ps.setLong(3, stream.count());
      if (stream.ids() == null) {
        ps.setNull(4, Types.ARRAY);
      } else {
        ps.setArray(4, connection.createArrayOf(uuidType(), stream.ids().stream().map(PersonRows::uuid).toArray()));
      }
      ps.setObject(5, createdAt.atOffset(ZoneOffset.UTC));
      return ps;
    });
  }

  public Optional<StoredStream> findStream(String requestId) {
    return jdbc.query(
            "SELECT request_hash, person_count, ids FROM register_people_request WHERE request_id = ?",
            (rs, n) -> new StoredStream(PersonRows.hex(rs.getBytes(1)), rs.getLong(2), PersonRows.strings(rs.getArray(3))),
            PersonRows.uuid(requestId))
        .stream()
        .findFirst();
  }

  /** The ids a stream stored, in the order it sent the people (empty when not kept). */
  public List<String> streamIds(String requestId) {
    return findStream(requestId).map(StoredStream::ids).orElse(List.of());
  }

  public Optional<PersonDto> findById(String id) {
    return jdbc.query("SELECT " + PersonRows.COLUMNS + " FROM person WHERE id = ?", (rs, n) -> PersonRows.person(rs),
            PersonRows.uuid(id))
        .stream()
        .findFirst();
  }

  public Optional<StoredRequest> findByRequestId(String requestId) {
    return Optional.ofNullable(findRequests(List.of(requestId)).get(requestId));
  }

  /** The earlier results of the request_ids that have one, by request_id as given. */
  public Map<String, StoredRequest> findRequests(Collection<String> requestIds) {
    Map<String, StoredRequest> found = new HashMap<>();
    if (requestIds.isEmpty()) {
      return found;
    }
    Map<UUID, String> asGiven = new HashMap<>();
    requestIds.forEach(id -> asGiven.put(PersonRows.uuid(id), id));
    named.query(
        "SELECT r.request_id, r.request_hash, p.id, p.name, p.age, p.city, p.zip_code, p.hobbies, p.created_at"
            + " FROM register_person_request r JOIN person p ON p.id = r.person_id WHERE r.request_id IN (:ids)",
        new MapSqlParameterSource("ids", asGiven.keySet()),
        rs -> {
          found.put(asGiven.get(rs.getObject(1, UUID.class)),
              new StoredRequest(PersonRows.person(rs), PersonRows.hex(rs.getBytes(2))));
        });
    return found;
  }

  /**
   * At most max people matching the filter in (created_at, id) order: the first read of a page
   * skips filter.offset() matches, later reads continue after the cursor.
   */
  public List<PersonDto> findPage(PersonFilter filter, PageCursor after, int max) {
    return pages.find(filter, after, max);
  }

  public long count() {
    Long n = jdbc.queryForObject("SELECT COUNT(*) FROM person", Long.class);
    return n == null ? 0 : n;
  }

  StoreKind kind() {
    return kind;
  }

  private void insertRows(Sequencer.Stamped stamped) {
    List<PersonDto> people = stamped.people();
    long[] seqs = stamped.seqs();
    jdbc.execute((Connection connection) -> {
      try (PreparedStatement ps = connection.prepareStatement(insertPerson)) {
        for (int i = 0; i < people.size(); i++) {
          bind(ps, connection, people.get(i), seqs[i]);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      return null;
    });
  }

  private void bind(PreparedStatement ps, Connection connection, PersonDto p, long seq) throws SQLException {
    int i = 1;
    if (kind.h2()) {
      ps.setLong(i++, seq);
    }
    AddressDto a = p.address();
    ps.setObject(i++, PersonRows.uuid(p.id()));
    ps.setString(i++, p.name());
    ps.setInt(i++, p.age());
    ps.setString(i++, a == null ? null : a.city());
    ps.setString(i++, a == null ? null : a.zipCode());
    ps.setArray(i++, connection.createArrayOf(kind.h2() ? "VARCHAR" : "text", p.hobbies().toArray()));
    ps.setObject(i, p.createdAt().atOffset(ZoneOffset.UTC));
  }

  private String uuidType() {
    return kind.h2() ? "UUID" : "uuid";
  }
}
