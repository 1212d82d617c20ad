package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;

import com.acme.person.domain.PersonDto;
import com.acme.person.service.PersonRegistry;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.mockito.MockitoSpyBean;

/**
 * Where calls run (grpc/CallPlacement): on the transport's threads unless they might wait or
 * carry a large request. A call whose token must be checked waits on the auth service, so it
 * must not hold a transport thread; a call with a large request runs on the large-call pool,
 * and when that is busy it waits — it is not refused.
 */
@TestPropertySource(properties = "person.grpc.large-call-threads=1")
class CallPlacementTest extends ServiceTestBase {

  /** The real registry, watched: the thread each RegisterPerson is stored on, by name. */
  @MockitoSpyBean PersonRegistry registry;

  private final Map<String, String> threads = new ConcurrentHashMap<>();
  /** A RegisterPerson of a person whose name starts with "hold" waits here before it is stored. */
  private final CountDownLatch release = new CountDownLatch(1);
  private final CountDownLatch held = new CountDownLatch(1);

  @BeforeEach
  void watchTheRegistry() {
    doAnswer(call -> {
      String name = call.<PersonDto>getArgument(1).name();
      threads.put(name, Thread.currentThread().getName());
      if (name.startsWith("hold")) {
        held.countDown();
        release.await(30, TimeUnit.SECONDS);
      }
      return call.callRealMethod();
    }).when(registry).register(any(), any());
  }

  @Test
  void largeCallsBeyondTheLargeCallThreadsWaitAndNoneIsRefused() throws Exception {
    // A token with a cached answer: only calls that start in place are moved, by size.
    blocking().registerPerson(People.register(People.person(People.uniqueName("small first"), 30)));
    var first = CompletableFuture.supplyAsync(() -> codeOf(() -> blocking().registerPerson(
        People.register(People.bigPerson(People.uniqueName("hold"), 100 << 10)))));
    assertThat(held.await(10, TimeUnit.SECONDS)).as("the first large call holds the only large-call thread").isTrue();

    List<CompletableFuture<Status.Code>> waiting = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      waiting.add(CompletableFuture.supplyAsync(() -> codeOf(() -> blocking().registerPerson(
          People.register(People.bigPerson(People.uniqueName("waits"), 100 << 10))))));
    }
    // Small calls run in place meanwhile, at once.
    blocking().registerPerson(People.register(People.person(People.uniqueName("small meanwhile"), 30)));
    Thread.sleep(300);
    for (CompletableFuture<Status.Code> call : waiting) {
      assertThat(call).as("a large call waits for the large-call thread").isNotDone();
    }

    release.countDown();
    assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.OK);
    for (CompletableFuture<Status.Code> call : waiting) {
      assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.OK);
    }
  }

  @Test
  void aSmallCallWithACachedTokenRunsInPlaceALargeOneOnThePool() {
    String small = People.uniqueName("small");
    String large = People.uniqueName("large");
    blocking().registerPerson(People.register(People.person(small, 30))); // the token is cached from here on
    blocking().registerPerson(People.register(People.person(small + " again", 30)));
    blocking().registerPerson(People.register(People.bigPerson(large, 100 << 10)));
    assertThat(threads.get(small + " again")).as("a 40-byte request, on a transport thread of the server (GrpcTransportConfig)")
        .startsWith("grpc-server-transport-");
    assertThat(threads.get(large)).as("a 100 KB request (over inline-max-message-size, 64 KB)").startsWith("grpc-large-call-");
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
