package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Many RegisterPeople uploads at once. A stream holds no thread while its people arrive, so
 * hundreds of uploads are all admitted and stored; the few store workers take each stream when
 * it is ready. (Before, a thread per stream from a pool of four refused the fifth stream before
 * reading a byte of it: the fuzz suite's flaky "RESOURCE_EXHAUSTED where message 0, which cannot
 * be decoded, must give INVALID_ARGUMENT".)
 */
// The token's answer is cached for the whole test: 500 uploads starting on a busy 2-core machine
// can take longer than the default 5 s, and this test is about the store's side, not the auth
// service's (AuthTest has that).
@TestPropertySource(properties = "person.auth.cache-ttl=10m")
class RegisterPeopleConcurrencyTest extends ServiceTestBase {

  @Test
  void aStreamWhoseFirstMessageCannotBeDecodedIsInvalidArgumentWhileOtherStreamsAreOpen() throws Exception {
    String name = uniqueName("open-beside-garbage");
    List<Upload> open = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      open.add(Upload.start(async(), List.of(registerMany(person(name, i)))));
      Thread.sleep(100); // it has arrived, and waits for its end

      RawCalls.Outcome garbage = RawCalls.call(channel, PersonServiceGrpc.getRegisterPeopleMethod(), token,
          List.of(HostileGrpcInputTest.GARBAGE), true);
      assertThat(garbage.status().getCode()).as("beside %d open streams: %s", i + 1, garbage.status())
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
    }
    for (Upload upload : open) {
      assertThat(upload.finish().get(30, TimeUnit.SECONDS).getCount()).isEqualTo(1);
    }
    assertThat(rowsNamed(name)).isEqualTo(8);
  }

  @Test
  void fiveHundredConcurrentUploadsAreAllStored() throws Exception {
    String name = uniqueName("five-hundred");
    // The token's answer cached first, as after any earlier call.
    Upload.start(async(), List.of()).finish().get(30, TimeUnit.SECONDS);
    int uploads = 500;
    int each = 20;
    List<Upload> open = new ArrayList<>();
    for (int u = 0; u < uploads; u++) {
      List<RegisterPeopleRequest> people = new ArrayList<>();
      for (int i = 0; i < each; i++) {
        people.add(registerMany(person(name, i)));
      }
      open.add(Upload.start(async(), people));
    }
    // All of them are open before the first one ends: none may be refused.
    List<CompletableFuture<RegisterPeopleResponse>> answers = new ArrayList<>();
    for (Upload upload : open) {
      answers.add(upload.finish());
    }
    int refused = 0;
    for (CompletableFuture<RegisterPeopleResponse> answer : answers) {
      Throwable failure = answer.handle((ok, err) -> err).get(60, TimeUnit.SECONDS);
      if (failure != null) {
        refused++;
        assertThat(Status.fromThrowable(failure).getCode()).as("an upload failed: %s", Status.fromThrowable(failure))
            .isEqualTo(Status.Code.OK);
      }
    }
    assertThat(refused).isZero();
    assertThat(rowsNamed(name)).isEqualTo((long) uploads * each);
  }

  /** One client stream: its people sent at start, its end sent by finish(). */
  static final class Upload {
    private final StreamObserver<RegisterPeopleRequest> out;
    private final CompletableFuture<RegisterPeopleResponse> answer;

    private Upload(StreamObserver<RegisterPeopleRequest> out, CompletableFuture<RegisterPeopleResponse> answer) {
      this.out = out;
      this.answer = answer;
    }

    static Upload start(PersonServiceGrpc.PersonServiceStub stub, List<RegisterPeopleRequest> people) {
      CompletableFuture<RegisterPeopleResponse> answer = new CompletableFuture<>();
      StreamObserver<RegisterPeopleRequest> out = stub.registerPeople(new StreamObserver<>() {
        private RegisterPeopleResponse response;

        @Override
        public void onNext(RegisterPeopleResponse value) {
          response = value;
        }

        @Override
        public void onError(Throwable t) {
          answer.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
          answer.complete(response);
        }
      });
      people.forEach(out::onNext);
      return new Upload(out, answer);
    }

    /** Sends one more message. */
    void send(RegisterPeopleRequest request) {
      out.onNext(request);
    }

    /** The stream's answer, or how it failed. */
    CompletableFuture<RegisterPeopleResponse> answer() {
      return answer;
    }

    /** Half-closes the stream; the future completes with its answer. */
    CompletableFuture<RegisterPeopleResponse> finish() {
      out.onCompleted();
      return answer;
    }

    /** Cancels the stream from the client's side. */
    void cancel() {
      out.onError(new IllegalStateException("the client gives up"));
    }
  }
}
