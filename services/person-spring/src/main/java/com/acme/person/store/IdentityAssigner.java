package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * The one place a person about to be stored gets its id and created_at, for single
 * registrations and streams alike.
 *
 * <p>Ids are time-ordered UUIDs (version 7: the millisecond, then random bits), so a new person
 * lands at the end of the id index instead of on a random page of it: a B-tree that is only
 * ever appended to writes one page per commit, not one per person.
 *
 * <p>created_at never repeats or goes back within the process (a microsecond later than the
 * last one when the clock has not moved on), and starts after the newest person already stored
 * ({@link #startAfter}): the embedded store pages in the order it stores people, and that is
 * (created_at, id) order only if created_at follows it.
 */
@Component
public class IdentityAssigner {

  private final Clock clock;
  private final AtomicLong lastMicros = new AtomicLong();

  public IdentityAssigner(Clock clock) {
    this.clock = clock;
  }

  /** person with a new id; its created_at is provisional until the store stamps it. */
  public PersonDto assign(PersonDto person) {
    return person.stored(newId().toString(), now());
  }

  /** A new version-7 UUID. */
  public UUID newId() {
    long millis = clock.millis();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long high = (millis << 16) | 0x7000L | (random.nextLong() & 0x0fffL);
    long low = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new UUID(high, low);
  }

  /**
   * The next store time: now in microseconds (what PostgreSQL keeps), later than every time
   * this assigner gave before.
   */
  public Instant now() {
    long clockMicros = ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant());
    long micros = lastMicros.accumulateAndGet(clockMicros, (last, now) -> Math.max(last + 1, now));
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }

  /** Every time given from now on is later than newest (the newest created_at stored). */
  public void startAfter(Instant newest) {
    long micros = ChronoUnit.MICROS.between(Instant.EPOCH, newest);
    lastMicros.accumulateAndGet(micros, Math::max);
  }
}
