package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.v1.RegisterPersonResponse;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The request budget (person.limits.requests-in-memory, grpc/RequestBudget): many large unary
 * calls at once all succeed, and the request bytes the service holds read but undecoded never
 * exceed the budget — the calls beyond it wait with their bytes at the sender (HTTP/2 flow
 * control). A call that may read its request and sends nothing gives its share back in time.
 */
@TestPropertySource(properties = {
  "person.limits.message-size=2MB",
  "person.limits.requests-in-memory=4MB",
  "person.limits.request-arrival-time=1s",
  "person.grpc.large-call-threads=1",
  "person.grpc.flow-control-window=64KB"
})
class RequestBudgetTest extends ServiceTestBase {

  private static final long BUDGET = 4L << 20;

  @Autowired MeterRegistry meters;

  @Test
  void manyLargeCallsAtOnceAllSucceedWithinTheBudget() throws Exception {
    blocking().registerPerson(People.register(People.person(People.uniqueName("token cached"), 30)));
    ExecutorService callers = Executors.newFixedThreadPool(24);
    try {
      List<CompletableFuture<Status.Code>> calls = new ArrayList<>();
      for (int i = 0; i < 24; i++) {
        RegisterPersonRequest large = People.register(People.bigPerson(People.uniqueName("large"), 1_000_000));
        calls.add(CompletableFuture.supplyAsync(() -> codeOf(() -> blocking().registerPerson(large)), callers));
      }
      for (CompletableFuture<Status.Code> call : calls) {
        assertThat(call.get(60, TimeUnit.SECONDS)).isEqualTo(Status.Code.OK);
      }
    } finally {
      callers.shutdownNow();
    }
    assertThat(gauge("person.grpc.requests.held.peak"))
        .as("request bytes held undecoded at once, at most (the budget: %d)", BUDGET)
        .isGreaterThan(0)
        .isLessThanOrEqualTo(BUDGET);
    assertThat(gauge("person.grpc.requests.held")).as("held once every call is over").isZero();
  }

  @Test
  void aCallThatSendsNothingGivesItsShareBackInTime() throws Exception {
    // Two calls that may read their request (2 × message-size fill the budget) and send none.
    List<CompletableFuture<Status>> silent = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      silent.add(silentCall());
    }
    Thread.sleep(200);
    long start = System.nanoTime();
    RegisterPersonResponse after = blocking().registerPerson(
        People.register(People.bigPerson(People.uniqueName("after the silent ones"), 100 << 10)));
    assertThat(after.getPerson().getId()).isNotEmpty();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).as("waited for a share, at most the arrival time and a sweep")
        .isLessThan(Duration.ofSeconds(5));
    for (CompletableFuture<Status> call : silent) {
      assertThat(call.get(10, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }
  }

  /** A RegisterPerson that starts, and never sends its message nor ends its stream. */
  private CompletableFuture<Status> silentCall() {
    CompletableFuture<Status> closed = new CompletableFuture<>();
    var stub = withToken(PersonServiceGrpc.newStub(channel), token);
    ClientCall<RegisterPersonRequest, RegisterPersonResponse> call =
        stub.getChannel().newCall(PersonServiceGrpc.getRegisterPersonMethod(), CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS));
    call.start(new ClientCall.Listener<>() {
      @Override
      public void onClose(Status status, Metadata trailers) {
        closed.complete(status);
      }
    }, new Metadata());
    call.request(1);
    return closed;
  }

  private double gauge(String name) {
    return meters.get(name).gauge().value();
  }
}
