package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Calls run on the transport's threads unless they might wait (OffloadingInterceptor). A call
 * whose token must be checked waits on the auth service, so it must not hold a transport thread:
 * while several such calls hang on a silent auth service, a call with a cached token on the same
 * connection is still answered at once.
 */
class CallPlacementTest extends ServiceTestBase {

  @Test
  void callsWaitingOnTheAuthServiceDoNotHoldUpOtherCallsOnTheConnection() throws Exception {
    GetPersonRequest unknown = GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();
    // A deadline, so that a transport thread held up fails the test instead of hanging it.
    var cached = withToken(PersonServiceGrpc.newBlockingStub(channel), token).withDeadlineAfter(5, TimeUnit.SECONDS);
    assertThat(code(() -> cached.getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND); // now cached

    // More hanging calls than the machine has transport threads (Netty: twice the cores).
    List<CompletableFuture<Status.Code>> hanging = new ArrayList<>();
    for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors() + 2; i++) {
      var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), StandInAuthService.HANG);
      hanging.add(CompletableFuture.supplyAsync(() -> code(() -> stub.getPerson(unknown))));
    }
    Thread.sleep(300); // they are all waiting on the auth service now

    long start = System.nanoTime();
    var again = withToken(PersonServiceGrpc.newBlockingStub(channel), token).withDeadlineAfter(5, TimeUnit.SECONDS);
    assertThat(code(() -> again.getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(took).as("a cached call while others wait on the auth service").isLessThan(Duration.ofMillis(1000));

    for (CompletableFuture<Status.Code> call : hanging) {
      assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.UNAVAILABLE);
    }
  }

  private static Status.Code code(Runnable call) {
    try {
      call.run();
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    }
  }
}
