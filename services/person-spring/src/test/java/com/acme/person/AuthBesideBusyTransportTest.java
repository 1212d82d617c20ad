package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.auth.Caller;
import com.acme.person.auth.TokenValidator;
import com.acme.person.config.TransportThreads;
import io.grpc.netty.shaded.io.netty.util.concurrent.EventExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * A token check does not wait for the server's transport threads. Calls whose token is cached
 * run on those threads (CallPlacement), so under a burst of calls they are all busy; when the
 * auth client's connection was served by the same threads (grpc-java's one default group for
 * every server and channel), its answer waited behind the burst and came after the deadline:
 * in the benchmarks' scenario 7, some of 500 uploaders were refused with "the auth service is
 * unavailable (DEADLINE_EXCEEDED)". Here every server transport thread is held while a new
 * token is checked: the check must still be answered, and within the auth deadline (2 s).
 */
class AuthBesideBusyTransportTest extends ServiceTestBase {

  @Autowired
  @Qualifier("grpcServerTransport")
  TransportThreads serverTransport;

  @Autowired TokenValidator tokens;

  @Test
  void aTokenIsCheckedWhileEveryServerTransportThreadIsBusy() throws Exception {
    List<EventExecutor> loops = new ArrayList<>();
    serverTransport.group().forEach(loops::add);
    CountDownLatch busy = new CountDownLatch(loops.size());
    CountDownLatch release = new CountDownLatch(1);
    for (EventExecutor loop : loops) {
      loop.execute(() -> {
        busy.countDown();
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
    }
    try {
      assertThat(busy.await(10, TimeUnit.SECONDS)).as("every server transport thread held").isTrue();
      String fresh = AUTH.issue(Duration.ofMinutes(10));
      int validations = AUTH.validations();
      // Well past the 2 s deadline, so that a check stuck behind the held threads ends in
      // AuthUnavailableException (DEADLINE_EXCEEDED) and fails the test, not this wait.
      Caller caller = tokens.validateHeaderAsync("Bearer " + fresh).get(10, TimeUnit.SECONDS);
      assertThat(caller.expiresAt()).isAfter(java.time.Instant.now());
      assertThat(AUTH.validations()).as("the auth service asked").isEqualTo(validations + 1);
    } finally {
      release.countDown();
    }
  }
}
