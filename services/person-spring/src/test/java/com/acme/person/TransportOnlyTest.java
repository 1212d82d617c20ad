package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.uniqueName;
import static com.acme.person.PersonServiceTest.rejected;
import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The benchmarks' transport-only mode answers as the service does — validation included — and
 * stores nothing: what it measures is the transport alone.
 */
@TestPropertySource(properties = {
  "person.benchmark.transport-only=true",
  "spring.datasource.url=jdbc:h2:mem:transport-only;DB_CLOSE_DELAY=-1"
})
@DirtiesContext
class TransportOnlyTest extends ServiceTestBase {

  @Test
  void requestsAreValidatedAndAnsweredButNothingIsStored() throws Exception {
    String name = uniqueName("not stored");
    Person answered = blocking().registerPerson(register(person(name, 30))).getPerson();
    assertThat(answered.getId()).isNotEmpty();
    assertThat(answered.getName()).isEqualTo(name);
    assertThat(rejected(() -> blocking().registerPerson(register(person(name, 200)))).getStatus().getCode())
        .isEqualTo(Status.Code.INVALID_ARGUMENT);

    CompletableFuture<RegisterPeopleResponse> stream = new CompletableFuture<>();
    StreamObserver<RegisterPeopleRequest> out = async().registerPeople(new StreamObserver<>() {
      @Override public void onNext(RegisterPeopleResponse value) { stream.complete(value); }
      @Override public void onError(Throwable t) { stream.completeExceptionally(t); }
      @Override public void onCompleted() {}
    });
    for (int i = 0; i < 5; i++) {
      out.onNext(registerMany(person(name, i)));
    }
    out.onCompleted();
    assertThat(stream.get(30, TimeUnit.SECONDS).getIdsCount()).isEqualTo(5);

    assertThat(rowsNamed(name)).isZero();
    assertThat(rejected(() -> blocking().getPerson(GetPersonRequest.newBuilder().setId(answered.getId()).build()))
        .getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
  }
}
