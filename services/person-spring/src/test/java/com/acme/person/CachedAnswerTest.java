package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Status;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;

/**
 * A call that runs on the transport thread because its token's answer was cached uses that
 * very answer. If the service looked the token up again and found the entry expired in
 * between, it would ask the auth service from the transport thread — whose answer that same
 * thread must read: the call, and every other call on the thread, would hang for ever. The
 * benchmarks hit it at a cache expiry; here a clock that jumps 20 s between two readings
 * makes "expired in between" happen every time.
 */
@Import(CachedAnswerTest.JumpingClock.class)
class CachedAnswerTest extends ServiceTestBase {

  @TestConfiguration
  static class JumpingClock {
    /** Readings to give out first, then the real time. */
    static final Deque<Instant> SCRIPT = new ArrayDeque<>();

    @Bean
    @Primary
    Clock jumpingClock() {
      return new Clock() {
        @Override
        public Instant instant() {
          synchronized (SCRIPT) {
            Instant next = SCRIPT.poll();
            return next != null ? next : Instant.now();
          }
        }

        @Override
        public ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }
      };
    }
  }

  @Test
  void aCallRunOnTheTransportThreadNeverAsksTheAuthService() {
    GetPersonRequest unknown = GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), token);
    assertThat(codeOf(() -> stub.withDeadlineAfter(5, TimeUnit.SECONDS).getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND);
    int validations = AUTH.validations();

    // The token (valid for 10 minutes) looks cached at the first reading, expired at the next.
    synchronized (JumpingClock.SCRIPT) {
      JumpingClock.SCRIPT.add(Instant.now());
      JumpingClock.SCRIPT.add(Instant.now().plusSeconds(3600));
    }
    assertThat(codeOf(() -> stub.withDeadlineAfter(5, TimeUnit.SECONDS).getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(AUTH.validations()).as("validations of the token by the auth service").isEqualTo(validations);
    synchronized (JumpingClock.SCRIPT) {
      JumpingClock.SCRIPT.clear();
    }
  }
}
