package com.acme.person.store;

import com.acme.person.domain.PersonDto;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The one place a person about to be stored gets its id (a random UUID) and created_at, for
 * single registrations and streams alike.
 */
@Component
public class IdentityAssigner {

  private final Clock clock;

  public IdentityAssigner(Clock clock) {
    this.clock = clock;
  }

  /** person as it will be stored: a new id, created now. */
  public PersonDto assign(PersonDto person) {
    return person.stored(UUID.randomUUID().toString(), now());
  }

  /** A store time the databases keep exactly: PostgreSQL timestamps have microseconds. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }
}
