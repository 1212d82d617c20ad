package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.config.PersonProperties;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.reflection.v1alpha.ServerReflectionGrpc;
import io.grpc.reflection.v1alpha.ServerReflectionRequest;
import io.grpc.reflection.v1alpha.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Bytes an outside client can send that no generated client would: undecodable messages, the
 * wrong number of messages, the longest token the contract allows. Each must end with a
 * documented status code, store nothing and leave the service as able as before.
 */
@org.junit.jupiter.api.extension.ExtendWith(org.springframework.boot.test.system.OutputCaptureExtension.class)
class HostileGrpcInputTest extends ServiceTestBase {

  /** Not protobuf: field number 0 is invalid, and the varint that follows never ends. */
  static final byte[] GARBAGE = {(byte) 0x07, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};

  /** What a status message must never show: parser, class or SQL details. */
  static final List<String> INTERNALS =
      List.of("protobuf", "tag", "wire type", "EOF", "Exception", "java.", "com.acme", "SQL", "Application error");

  @Autowired PersonProperties properties;

  /**
   * Authentication answers first, even when the call moves to a pool to authenticate (its token
   * has no cached answer) and the request is wrong as well: the fuzz suite saw "no request
   * message" overtake UNAUTHENTICATED. A race, so many times over.
   */
  @Test
  void aCallWithoutAValidTokenIsUnauthenticatedWhateverItsMessages() {
    for (int i = 0; i < 200; i++) {
      String bearer = i % 2 == 0 ? null : "garbage-" + i;
      RawCalls.Outcome outcome =
          RawCalls.call(channel, PersonServiceGrpc.getRegisterPersonMethod(), bearer, List.of(), true);
      assertThat(outcome.status().getCode()).as("call %d, token %s", i, bearer).isEqualTo(Status.Code.UNAUTHENTICATED);
    }
  }

  @Test
  void undecodableMessageMidStreamIsInvalidArgumentStoresNothingAndFreesTheWorker() {
    // More streams than RegisterPeople has writers: a writer left waiting on a refused stream
    // would hold up the later ones (and every other user's) for good.
    int streams = properties.registerPeople().writers() * 3;
    String name = uniqueName("garbage-stream");
    for (int i = 0; i < streams; i++) {
      RawCalls.Outcome outcome = RawCalls.call(channel, PersonServiceGrpc.getRegisterPeopleMethod(), token,
          List.of(registerMany(person(name, 1)).toByteArray(), registerMany(person(name, 2)).toByteArray(), GARBAGE),
          true);
      assertThat(outcome.status().getCode()).as("stream %d", i).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertNoInternals(outcome.status());
      assertThat(outcome.status().getDescription()).contains("message 2 ");
    }
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isZero();
    // And the service still takes a valid stream.
    String after = uniqueName("after-garbage");
    RawCalls.Outcome ok = RawCalls.call(channel, PersonServiceGrpc.getRegisterPeopleMethod(), token,
        List.of(registerMany(person(after, 3)).toByteArray()), true);
    assertThat(ok.status().getCode()).isEqualTo(Status.Code.OK);
    assertThat(rowsNamed(after)).isEqualTo(1);
  }

  @Test
  void aCompressedMessageThatInflatesPastTheLimitIsResourceExhaustedAndStoresNothing() {
    // A person of 10 MB of repeated hobbies, gzip-compressed by the client to some 20 KB: the
    // limit (9 MB) holds after decompression, while it is decoded. (A bomb of zeros never
    // inflates far: decoding stops at the first byte, an invalid tag — INVALID_ARGUMENT.) The
    // stream's valid person before it must not be stored.
    String name = uniqueName("bomb");
    byte[] inflates = registerMany(People.bigPerson(name, 10 * 1024 * 1024)).toByteArray();
    RawCalls.Outcome outcome = RawCalls.call(channel, PersonServiceGrpc.getRegisterPeopleMethod(), token,
        List.of(registerMany(person(name, 1)).toByteArray(), inflates), true,
        io.grpc.CallOptions.DEFAULT.withCompression("gzip"));
    assertThat(outcome.status().getCode()).as(outcome.status().toString()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertNoInternals(outcome.status());
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isZero();
  }

  @Test
  void aClientsBadFramesDoNotFloodTheLog(org.springframework.boot.test.system.CapturedOutput output) {
    // grpc-java logs every frame it refuses (over the size limit, cut short) with a stack trace
    // at WARN: a client sending bad frames in a loop would flood the service's log.
    byte[] over = new byte[(int) properties.limits().messageSize().toBytes() + 1];
    for (int i = 0; i < 3; i++) {
      RawCalls.Outcome outcome = RawCalls.call(channel, PersonServiceGrpc.getRegisterPersonMethod(), token, List.of(over), true);
      assertThat(outcome.status().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    }
    assertThat(output.getAll()).doesNotContain("Exception processing message").doesNotContain("\tat io.grpc");
  }

  @Test
  void undecodableRequestOfEveryRpcIsInvalidArgument() {
    for (MethodDescriptor<?, ?> method : personMethods()) {
      RawCalls.Outcome outcome = RawCalls.call(channel, method, token, List.of(GARBAGE), true);
      assertThat(outcome.status().getCode()).as(method.getFullMethodName()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertNoInternals(outcome.status());
    }
  }

  @Test
  void unaryCallsWithoutOrWithTwoRequestsAreInvalidArgument() {
    byte[] get = GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build().toByteArray();
    for (MethodDescriptor<?, ?> method : personMethods()) {
      if (method.getType().clientSendsOneMessage()) {
        RawCalls.Outcome none = RawCalls.call(channel, method, token, List.of(), true);
        assertThat(none.status().getCode()).as("%s without a request", method.getFullMethodName())
            .isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertNoInternals(none.status());
      }
    }
    RawCalls.Outcome two = RawCalls.call(channel, PersonServiceGrpc.getGetPersonMethod(), token, List.of(get, get), true);
    assertThat(two.status().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertNoInternals(two.status());
  }

  @Test
  void theLongestTokenTheContractAllowsReachesTheAuthService() {
    // ValidateTokenRequest.token allows 8,192 characters; the header carries "Bearer " too.
    String longest = "t".repeat(8192);
    RawCalls.Outcome outcome = RawCalls.call(channel, PersonServiceGrpc.getGetPersonMethod(), longest,
        List.of(GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build().toByteArray()), true);
    // The stand-in does not know it: the auth service's verdict, not a transport error.
    assertThat(outcome.status().getCode()).as(outcome.status().toString()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(outcome.status().getDescription()).contains("token");
  }

  @Test
  void aRevokedTokenIsRefusedWithinTheRevocationBound() throws Exception {
    Duration bound = properties.auth().cacheTtl();
    assertThat(bound).as("the default revocation bound").isLessThanOrEqualTo(Duration.ofSeconds(5));
    String revoked = AUTH.issue(Duration.ofMinutes(10));
    var stub = withToken(PersonServiceGrpc.newBlockingStub(channel), revoked);
    GetPersonRequest unknown = GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();
    // Accepted (and so cached) while valid: the person is simply not there.
    assertThat(PersonServiceTest.rejected(() -> stub.getPerson(unknown)).getStatus().getCode())
        .isEqualTo(Status.Code.NOT_FOUND);

    AUTH.revoke(revoked);
    long start = System.nanoTime();
    Status.Code code;
    do {
      Thread.sleep(100);
      code = PersonServiceTest.rejected(() -> stub.getPerson(unknown)).getStatus().getCode();
    } while (code == Status.Code.NOT_FOUND && System.nanoTime() - start < bound.plusSeconds(2).toNanos());
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(code).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(took).isLessThanOrEqualTo(bound.plusMillis(500));
  }

  @Test
  void reflectionV1alphaListsThePersonService() throws Exception {
    // ghz and older grpcurl builds only speak v1alpha.
    CompletableFuture<ServerReflectionResponse> answer = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> out =
        ServerReflectionGrpc.newStub(channel).serverReflectionInfo(new StreamObserver<>() {
          @Override public void onNext(ServerReflectionResponse value) { answer.complete(value); }
          @Override public void onError(Throwable t) { answer.completeExceptionally(t); }
          @Override public void onCompleted() {}
        });
    out.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    out.onCompleted();
    List<String> names = new ArrayList<>();
    answer.get(10, TimeUnit.SECONDS).getListServicesResponse().getServiceList().forEach(s -> names.add(s.getName()));
    assertThat(names).contains(PersonServiceGrpc.SERVICE_NAME);
  }

  static List<MethodDescriptor<?, ?>> personMethods() {
    List<MethodDescriptor<?, ?>> methods = new ArrayList<>();
    PersonServiceGrpc.getServiceDescriptor().getMethods().forEach(methods::add);
    return methods;
  }

  static void assertNoInternals(Status status) {
    String description = String.valueOf(status.getDescription());
    for (String internal : INTERNALS) {
      assertThat(description).as("status message").doesNotContainIgnoringCase(internal);
    }
  }
}
