package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.PersonServiceTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.SyncPeopleResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A failure nobody mapped (here: a table dropped under the running service, so every SQL
 * statement fails) must reach clients as INTERNAL with a fixed message, never the exception's
 * text, the SQL or a stack trace. Runs on its own database, which it breaks.
 */
@TestPropertySource(properties = "spring.datasource.url=jdbc:h2:mem:broken;DB_CLOSE_DELAY=-1")
@DirtiesContext
class UnexpectedFailureTest extends ServiceTestBase {

  @Test
  void unmappedExceptionsBecomeInternalWithoutLeakingInternals() throws Exception {
    jdbc.execute("DROP TABLE register_person_request");

    StatusRuntimeException e = rejected(() -> blocking().registerPerson(register(person("leak", 1))));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(e.getStatus().getDescription()).isEqualTo("internal error");
    assertThat(e.getTrailers().keys()).noneMatch(k -> k.contains("stack") || k.contains("exception"));

    StatusRuntimeException get = rejected(() -> blocking().getPerson(
        GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build()));
    assertThat(get.getStatus().getCode()).isIn(Status.Code.INTERNAL, Status.Code.NOT_FOUND);
    assertThat(String.valueOf(get.getStatus().getDescription())).doesNotContainIgnoringCase("register_person_request");

    // SyncPeople: the failure is one item's answer, and the stream goes on.
    List<SyncPeopleResponse> answers = new ArrayList<>();
    CompletableFuture<Void> done = new CompletableFuture<>();
    StreamObserver<com.acme.person.v1.SyncPeopleRequest> out = async().syncPeople(new StreamObserver<>() {
      @Override public void onNext(SyncPeopleResponse value) { answers.add(value); }
      @Override public void onError(Throwable t) { done.completeExceptionally(t); }
      @Override public void onCompleted() { done.complete(null); }
    });
    out.onNext(People.sync(UUID.randomUUID().toString(), person("leak", 1)));
    out.onNext(People.sync(UUID.randomUUID().toString(), person("leak", 2)));
    out.onCompleted();
    done.get(10, TimeUnit.SECONDS);
    assertThat(answers).hasSize(2).allSatisfy(a -> {
      assertThat(a.getError().getCode()).isEqualTo(Status.Code.INTERNAL.value());
      assertThat(a.getError().getMessage()).isEqualTo("internal error");
    });
  }
}
