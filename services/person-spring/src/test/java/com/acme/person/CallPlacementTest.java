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
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.test.context.TestPropertySource;
import java.util.concurrent.CountDownLatch;

/**
 * Calls run on the transport's threads unless they might wait (OffloadingInterceptor). A call
 * whose token must be checked waits on the auth service, so it must not hold a transport thread:
 * while several such calls hang on a silent auth service, a call with a cached token on the same
 * connection is still answered at once.
 */
@Import(CallPlacementTest.ThreadProbe.class)
@TestPropertySource(properties = "person.limits.large-requests-in-flight=1")
class CallPlacementTest extends ServiceTestBase {

  /** Records the thread each RegisterPerson's handler completes on, by person name. */
  @TestConfiguration
  static class ThreadProbe {
    static final Map<String, String> THREADS = new ConcurrentHashMap<>();
    /** A RegisterPerson of a person whose name starts with "hold" waits here before it runs. */
    static final CountDownLatch RELEASE = new CountDownLatch(1);
    static final CountDownLatch HELD = new CountDownLatch(1);

    @Bean
    @GlobalServerInterceptor
    @Order(1000) // after OffloadingInterceptor: where the handler runs
    ServerInterceptor threadProbe() {
      return new ServerInterceptor() {
        @Override
        public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
            ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
          return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(call, headers)) {
            private String name;

            @Override
            public void onMessage(ReqT message) {
              if (message instanceof RegisterPersonRequest r) {
                name = r.getPerson().getName();
              }
              super.onMessage(message);
            }

            @Override
            public void onHalfClose() {
              if (name != null) {
                THREADS.put(name, Thread.currentThread().getName());
                if (name.startsWith("hold")) {
                  HELD.countDown();
                  try {
                    RELEASE.await(30, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                }
              }
              super.onHalfClose();
            }
          };
        }
      };
    }
  }

  @Test
  void largeCallsBeyondTheLimitInProgressAreRefusedAndThePermitComesBack() throws Exception {
    // A token with a cached answer: only calls that start inline are moved, and counted, by size.
    blocking().registerPerson(People.register(People.person(People.uniqueName("small first"), 30)));
    var held = CompletableFuture.supplyAsync(() -> codeOf(() -> blocking().registerPerson(
        People.register(People.bigPerson(People.uniqueName("hold"), 100 << 10)))));
    assertThat(ThreadProbe.HELD.await(10, TimeUnit.SECONDS)).as("the first large call is in progress").isTrue();

    StatusRuntimeException refused = org.junit.jupiter.api.Assertions.assertThrows(StatusRuntimeException.class,
        () -> blocking().registerPerson(People.register(People.bigPerson(People.uniqueName("second"), 100 << 10))));
    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(refused.getStatus().getDescription()).contains("more than 1 calls with a request over 65536 bytes");
    // Small calls are not counted.
    blocking().registerPerson(People.register(People.person(People.uniqueName("small meanwhile"), 30)));

    ThreadProbe.RELEASE.countDown();
    assertThat(held.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.OK);
    // The first call's permit came back: the next large call is admitted.
    blocking().registerPerson(People.register(People.bigPerson(People.uniqueName("third"), 100 << 10)));
  }

  @Test
  void aSmallCallWithACachedTokenRunsInlineALargeOneOnThePool() {
    String small = People.uniqueName("small");
    String large = People.uniqueName("large");
    blocking().registerPerson(People.register(People.person(small, 30))); // the token is cached from here on
    blocking().registerPerson(People.register(People.person(small + " again", 30)));
    blocking().registerPerson(People.register(People.bigPerson(large, 100 << 10)));
    assertThat(ThreadProbe.THREADS.get(small + " again")).as("a 40-byte request, on a Netty event loop").contains("-ELG-");
    assertThat(ThreadProbe.THREADS.get(large)).as("a 100 KB request (over inline-max-message-size, 64 KB)").startsWith("grpc-large-call-");
  }

  @Test
  void callsWaitingOnTheAuthServiceDoNotHoldUpOtherCallsOnTheConnection() throws Exception {
    GetPersonRequest unknown = GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();
    // A deadline, so that a transport thread held up fails the test instead of hanging it.
    var cached = withToken(PersonServiceGrpc.newBlockingStub(channel), token).withDeadlineAfter(5, TimeUnit.SECONDS);
    assertThat(codeOf(() -> cached.getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND); // now cached

    // More hanging calls than the machine has transport threads (Netty: twice the cores).
    List<CompletableFuture<Status.Code>> hanging = new ArrayList<>();
    for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors() + 2; i++) {
      var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), StandInAuthService.HANG);
      hanging.add(CompletableFuture.supplyAsync(() -> codeOf(() -> stub.getPerson(unknown))));
    }
    Thread.sleep(300); // they are all waiting on the auth service now

    long start = System.nanoTime();
    var again = withToken(PersonServiceGrpc.newBlockingStub(channel), token).withDeadlineAfter(5, TimeUnit.SECONDS);
    assertThat(codeOf(() -> again.getPerson(unknown))).isEqualTo(Status.Code.NOT_FOUND);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(took).as("a cached call while others wait on the auth service").isLessThan(Duration.ofMillis(1000));

    for (CompletableFuture<Status.Code> call : hanging) {
      assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.UNAVAILABLE);
    }
  }
}
