package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import com.acme.person.domain.PersonFilter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The embedded store's pages, in seq order (which is (created_at, id) order, see Sequencer),
 * read from the person table's own B-tree after the cursor's seq — no offset to walk past.
 * name_contains with three or more characters asks the in-memory trigram index (NameIndex) for
 * candidates in seq order and reads only those rows, a few dozen at a time, checking each name;
 * shorter texts, which have no trigram, are checked row by row in seq order.
 */
final class H2PersonPages implements PersonPages {
  /** Candidates read per query: enough to fill a chunk of a page when most are real matches. */
  private static final int FETCH = 64;
  /** Rows read per query when every row must be checked. */
  private static final int SCAN = 1024;
  private static final String SELECT = "SELECT seq, " + PersonRows.COLUMNS + " FROM person";
  private static final String FETCH_SQL =
      SELECT + " WHERE seq IN (" + String.join(", ", Collections.nCopies(FETCH, "?")) + ") ORDER BY seq";

  private final JdbcTemplate jdbc;
  private final NameIndex index;

  H2PersonPages(JdbcTemplate jdbc, NameIndex index) {
    this.jdbc = jdbc;
    this.index = index;
  }

  @Override
  public List<PersonDto> find(PersonFilter filter, PageCursor after, int max) {
    long afterSeq = after == null ? 0 : seqOf(after);
    long skip = after == null ? filter.offset() : 0;
    String text = filter.nameContains() == null || filter.nameContains().isEmpty()
        ? null : Trigrams.lower(filter.nameContains());
    if (text == null) {
      return unnamed(filter, afterSeq, skip, max);
    }
    Matcher match = new Matcher(filter, text, skip, max);
    if (Trigrams.of(text).length == 0) {
      scan(match, afterSeq);
    } else {
      searched(match, index.candidates(text, afterSeq));
    }
    return match.found;
  }

  /** No name filter: the table's B-tree in seq order, ages checked by the query. */
  private List<PersonDto> unnamed(PersonFilter filter, long afterSeq, long skip, int max) {
    StringBuilder sql = new StringBuilder(SELECT + " WHERE seq > ?");
    List<Object> args = new ArrayList<>(List.of(afterSeq));
    if (filter.minAge() != null) {
      sql.append(" AND age >= ?");
      args.add(filter.minAge());
    }
    if (filter.maxAge() != null) {
      sql.append(" AND age <= ?");
      args.add(filter.maxAge());
    }
    sql.append(" ORDER BY seq LIMIT ? OFFSET ?");
    args.add(max);
    args.add(skip);
    return jdbc.query(sql.toString(), (rs, n) -> PersonRows.person(rs), args.toArray());
  }

  private void searched(Matcher match, NameIndex.Candidates candidates) {
    Object[] seqs = new Object[FETCH];
    while (!match.full()) {
      int n = 0;
      for (long seq; n < FETCH && (seq = candidates.next()) != -1; ) {
        seqs[n++] = seq;
      }
      if (n == 0) {
        return;
      }
      // The unused places name no seq (seqs start at 1).
      for (int i = n; i < FETCH; i++) {
        seqs[i] = -1L;
      }
      jdbc.query(FETCH_SQL, rs -> {
        match.offer(PersonRows.person(rs));
      }, seqs);
      if (n < FETCH) {
        return;
      }
    }
  }

  private void scan(Matcher match, long afterSeq) {
    long[] last = {afterSeq};
    while (!match.full()) {
      int[] rows = {0};
      jdbc.query(SELECT + " WHERE seq > ? ORDER BY seq LIMIT ?", rs -> {
        rows[0]++;
        last[0] = rs.getLong("seq");
        match.offer(PersonRows.person(rs));
      }, last[0], SCAN);
      if (rows[0] < SCAN) {
        return;
      }
    }
  }

  /** The seq of the person a cursor names. */
  private long seqOf(PageCursor after) {
    List<Long> seq = jdbc.queryForList("SELECT seq FROM person WHERE id = ?", Long.class, PersonRows.uuid(after.id()));
    if (seq.isEmpty()) {
      throw new IllegalArgumentException("no person " + after.id() + " to continue after");
    }
    return seq.get(0);
  }

  /** Checks candidates against the whole filter, skips the offset and keeps at most max. */
  private static final class Matcher {
    private final PersonFilter filter;
    private final String text;
    private long skip;
    private final int max;
    private final List<PersonDto> found = new ArrayList<>();

    Matcher(PersonFilter filter, String text, long skip, int max) {
      this.filter = filter;
      this.text = text;
      this.skip = skip;
      this.max = max;
    }

    void offer(PersonDto p) {
      if (full() || !Trigrams.contains(p.name(), text)
          || filter.minAge() != null && p.age() < filter.minAge()
          || filter.maxAge() != null && p.age() > filter.maxAge()) {
        return;
      }
      if (skip > 0) {
        skip--;
      } else {
        found.add(p);
      }
    }

    boolean full() {
      return found.size() >= max;
    }
  }
}
