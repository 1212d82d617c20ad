package com.acme.person;

import static com.acme.person.PersonServiceTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every PersonService call needs a valid Bearer token; health and reflection do not. */
class AuthTest extends ServiceTestBase {

  @org.springframework.beans.factory.annotation.Autowired
  com.acme.person.config.PersonProperties properties;

  private static final GetPersonRequest GET_UNKNOWN =
      GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();

  @Test
  void missingTokenIsUnauthenticated() {
    var stub = PersonServiceGrpc.newBlockingStub(channel);
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(code(() -> stub.listPeople(ListPeopleRequest.getDefaultInstance()).hasNext()))
        .isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void missingTokenOnAStreamIsUnauthenticated() throws Exception {
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    var out = PersonServiceGrpc.newStub(channel).syncPeople(new StreamObserver<>() {
      @Override public void onNext(com.acme.person.v1.SyncPeopleResponse value) {}
      @Override public void onError(Throwable t) { failure.complete(t); }
      @Override public void onCompleted() { failure.complete(null); }
    });
    out.onNext(People.sync(UUID.randomUUID().toString(), People.person("x", 1)));
    out.onCompleted();
    assertThat(Status.fromThrowable(failure.get(10, TimeUnit.SECONDS)).getCode())
        .isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void notABearerTokenIsUnauthenticated() {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Basic YWxpY2U6c2VjcmV0");
    var stub = PersonServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void unknownTokenIsUnauthenticated() {
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), "forged");
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void expiredTokenIsUnauthenticated() {
    String expired = AUTH.issue(Duration.ofSeconds(-1));
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), expired);
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void authenticationComesBeforeValidation() {
    var stub = PersonServiceGrpc.newBlockingStub(channel);
    GetPersonRequest invalid = GetPersonRequest.newBuilder().setId("not-a-uuid").build();
    assertThat(code(() -> stub.getPerson(invalid))).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  void validAnswersAreCachedButNeverBeyondTheTokensExpiry() throws Exception {
    // The connection and the service warm first: both calls must come before the token expires.
    assertThat(code(() -> withToken(PersonServiceGrpc.newBlockingStub(channel), token).getPerson(GET_UNKNOWN)))
        .isEqualTo(Status.Code.NOT_FOUND);
    String shortLived = AUTH.issue(Duration.ofMillis(3000));
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), shortLived);

    int before = AUTH.validations();
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(AUTH.validations() - before).as("second call answered from the cache").isEqualTo(1);

    // The cache TTL (5 s) is longer than the token: the entry must go with the token.
    Thread.sleep(3200);
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(AUTH.validations() - before).isEqualTo(2);
  }

  @Test
  void callsArrivingWithATokenBeingCheckedTakeThatAnswer() throws Exception {
    // 40 calls at once with a new token whose check takes a while: one question to the auth
    // service, not 40 (500 uploads starting at once asked 500 times and ran past the deadline).
    String fresh = AUTH.issueSlow(Duration.ofMinutes(5));
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), fresh).withDeadlineAfter(20, TimeUnit.SECONDS);
    int before = AUTH.validations();
    java.util.List<CompletableFuture<Status.Code>> calls = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      calls.add(CompletableFuture.supplyAsync(() -> code(() -> stub.getPerson(GET_UNKNOWN))));
    }
    for (CompletableFuture<Status.Code> call : calls) {
      assertThat(call.get(20, TimeUnit.SECONDS)).isEqualTo(Status.Code.NOT_FOUND);
    }
    // A call may miss the cache just before the answer is stored and ask once more.
    assertThat(AUTH.validations() - before).as("questions to the auth service").isLessThanOrEqualTo(2);
  }

  @Test
  void aTokenInUseIsCheckedAgainInTheBackgroundOnceItsAnswerIsHalfTheTtlOld() throws Exception {
    // So that busy callers do not all find it expired at once and wait on the auth service.
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), AUTH.issue(Duration.ofMinutes(5)));
    int before = AUTH.validations();
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(AUTH.validations() - before).isEqualTo(1);
    Thread.sleep(properties.auth().cacheTtl().dividedBy(2).plusMillis(200).toMillis());
    assertThat(code(() -> stub.getPerson(GET_UNKNOWN))).as("answered from the cache").isEqualTo(Status.Code.NOT_FOUND);
    // (Other tests' tokens may be checked meanwhile too: at least this one's second check.)
    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
        .until(() -> AUTH.validations() - before >= 2);
  }

  @Test
  void authServiceNotAnsweringInTimeIsUnavailable() {
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), StandInAuthService.HANG)
        .withDeadlineAfter(10, TimeUnit.SECONDS);
    long start = System.nanoTime();
    StatusRuntimeException e = rejected(() -> stub.getPerson(GET_UNKNOWN));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    // Our own 2 s auth deadline fired, not the client's 10 s one.
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(8));
  }

  @Test
  void healthNeedsNoToken() {
    var health = HealthGrpc.newBlockingStub(channel);
    assertThat(health.check(HealthCheckRequest.getDefaultInstance()).getStatus()).isEqualTo(ServingStatus.SERVING);
  }

  @Test
  void reflectionNeedsNoTokenAndListsPersonService() throws Exception {
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    var out = ServerReflectionGrpc.newStub(channel).serverReflectionInfo(new StreamObserver<>() {
      @Override public void onNext(ServerReflectionResponse value) { answer.complete(value); }
      @Override public void onError(Throwable t) { answer.completeExceptionally(t); }
      @Override public void onCompleted() {}
    });
    out.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    out.onCompleted();
    assertThat(answer.get(10, TimeUnit.SECONDS).getListServicesResponse().getServiceList())
        .extracting(s -> s.getName())
        .contains("acme.person.v1.PersonService", "grpc.health.v1.Health");
  }

  private static Status.Code code(Runnable call) {
    return rejected(call).getStatus().getCode();
  }
}
