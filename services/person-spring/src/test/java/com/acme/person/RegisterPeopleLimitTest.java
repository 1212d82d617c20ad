package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.RegisterPeopleConcurrencyTest.Upload;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleResponse;
import com.google.protobuf.Any;
import com.google.rpc.RetryInfo;
import io.grpc.Status;
import io.grpc.protobuf.StatusProto;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * The limit of RegisterPeople streams open at once is real, and the only reason a stream is
 * refused: one more than the limit gets RESOURCE_EXHAUSTED with a google.rpc.RetryInfo, and a
 * stream that is cancelled, runs out of time, fails or ends gives its place back at once. (The
 * limit is three here; the service's own is in the thousands, person.limits.)
 */
// The token's answer cached for the whole test: every stream is then admitted where its
// connection's transport thread starts it, in the order the streams were opened.
@TestPropertySource(properties = {"person.limits.register-people-streams=3", "person.auth.cache-ttl=10m"})
class RegisterPeopleLimitTest extends ServiceTestBase {

  @Test
  void oneStreamOverTheLimitIsRefusedWithRetryInfoAndEveryEndGivesItsPlaceBack() throws Exception {
    String name = uniqueName("limit");
    Upload.start(async(), List.of()).finish().get(30, TimeUnit.SECONDS); // the token's answer cached
    Upload cancelled = open(name);
    Upload failed = open(name);
    Upload held = open(name);
    assertRefused(open(name));

    cancelled.cancel();
    assertThat(open(name).finish().get(30, TimeUnit.SECONDS).getCount()).as("after a cancel").isEqualTo(1);

    failed.send(registerMany(person(name, 200))); // age 200: invalid, the stream is refused
    assertThat(Status.fromThrowable(failed.answer().handle((ok, err) -> err).get(30, TimeUnit.SECONDS)).getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(open(name).finish().get(30, TimeUnit.SECONDS).getCount()).as("after a failure").isEqualTo(1);

    // The limit full again with a stream that runs out of time. Whether its deadline passes
    // before or after the third stream opens, a place it kept would refuse the next stream.
    Upload timedOut = Upload.start(
        async().withDeadlineAfter(500, TimeUnit.MILLISECONDS), List.of(registerMany(person(name, 1))));
    Upload third = open(name);
    assertThat(Status.fromThrowable(timedOut.answer().handle((ok, err) -> err).get(30, TimeUnit.SECONDS)).getCode())
        .isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    Upload afterDeadline = open(name);
    assertRefused(open(name));
    assertThat(afterDeadline.finish().get(30, TimeUnit.SECONDS).getCount()).as("after a deadline").isEqualTo(1);

    held.finish().get(30, TimeUnit.SECONDS);
    assertThat(open(name).finish().get(30, TimeUnit.SECONDS).getCount()).as("after an end").isEqualTo(1);
    third.finish().get(30, TimeUnit.SECONDS);
  }

  private Upload open(String name) {
    return Upload.start(async(), List.of(registerMany(person(name, 1))));
  }

  private static void assertRefused(Upload upload) throws Exception {
    CompletableFuture<RegisterPeopleResponse> answer = upload.answer();
    Throwable refused = answer.handle((ok, err) -> err).get(30, TimeUnit.SECONDS);
    assertThat(Status.fromThrowable(refused).getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(Status.fromThrowable(refused).getDescription()).contains("more than 3 RegisterPeople streams");
    com.google.rpc.Status status = StatusProto.fromThrowable(refused);
    assertThat(status).isNotNull();
    Any detail = status.getDetailsList().stream().filter(d -> d.is(RetryInfo.class)).findFirst().orElseThrow();
    assertThat(detail.unpack(RetryInfo.class).getRetryDelay().getSeconds()).isEqualTo(1);
  }
}
