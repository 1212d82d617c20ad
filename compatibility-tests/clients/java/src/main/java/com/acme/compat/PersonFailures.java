package com.acme.compat;

import static io.grpc.Status.Code.ALREADY_EXISTS;
import static io.grpc.Status.Code.CANCELLED;
import static io.grpc.Status.Code.DEADLINE_EXCEEDED;
import static io.grpc.Status.Code.INVALID_ARGUMENT;
import static io.grpc.Status.Code.NOT_FOUND;
import static io.grpc.Status.Code.UNAUTHENTICATED;

import com.acme.auth.v1.CreateUserRequest;
import com.acme.auth.v1.DisableUserRequest;
import com.acme.auth.v1.Role;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/** person-spring when things go wrong: auth, deadlines, cancellation, error details. */
final class PersonFailures {
  private final Clients clients;
  private final People people;

  PersonFailures(Clients clients) {
    this.clients = clients;
    this.people = new People(clients);
  }

  private static GetPersonRequest randomId() {
    return GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build();
  }

  void authMetadata() throws Exception {
    Checks.expectStatus(UNAUTHENTICATED, "GetPerson without authorization", () -> clients.personRaw(null).getPerson(randomId()));
    Checks.expectStatus(UNAUTHENTICATED, "GetPerson with Bearer garbage", () -> clients.personRaw("Bearer garbage").getPerson(randomId()));
    Checks.expectStatus(NOT_FOUND, "GetPerson(random UUID) with the admin token", () -> clients.person().getPerson(randomId()));

    String username = clients.run() + "-user";
    String password = "compat-password-" + clients.run();
    clients.auth(clients.adminToken()).createUser(
        CreateUserRequest.newBuilder().setUsername(username).setPassword(password).addRoles(Role.ROLE_USER).build());
    String token = clients.login(username, password);
    Person person = People.person(people.name("user"), 40).build();
    People.expectStored(person, clients.person(token).registerPerson(People.request(People.requestId(), person)).getPerson(),
        "RegisterPerson with a ROLE_USER token");
    clients.auth(clients.adminToken()).disableUser(DisableUserRequest.newBuilder().setUsername(username).build());
    Checks.expectStatus(UNAUTHENTICATED, "RegisterPerson with the token of a disabled user",
        () -> clients.person(token).registerPerson(People.request(People.requestId(), person)));
  }

  void deadline() throws Exception {
    RegisterPeopleRequest dl = RegisterPeopleRequest.newBuilder()
        .setRequestId(People.requestId())
        .setPerson(People.person(people.name("dl"), 50))
        .build();
    StreamCollector<RegisterPeopleResponse> answer = new StreamCollector<>();
    StreamObserver<RegisterPeopleRequest> out =
        clients.personAsync().withDeadlineAfter(500, TimeUnit.MILLISECONDS).registerPeople(answer);
    out.onNext(dl);
    // Never half-closed: only the deadline can end this call.
    Status end = answer.end(Duration.ofSeconds(5), "RegisterPeople with a 500 ms deadline");
    Checks.equal(DEADLINE_EXCEEDED, end.getCode(), "RegisterPeople with a 500 ms deadline");
    // A client that saw an error cannot know whether the stream was stored (a commit and the
    // deadline can cross); the contract makes repeating it with the same request_id safe.
    StreamCollector<RegisterPeopleResponse> retry = new StreamCollector<>();
    StreamObserver<RegisterPeopleRequest> again =
        clients.personAsync().withDeadlineAfter(Clients.CALL_SECONDS, TimeUnit.SECONDS).registerPeople(retry);
    again.onNext(dl);
    again.onCompleted();
    RegisterPeopleResponse stored = retry.next(Duration.ofSeconds(Clients.CALL_SECONDS), "the repeated stream");
    Checks.equal(Status.Code.OK, retry.end(Duration.ofSeconds(5), "the repeated stream").getCode(), "the repeated stream");
    Checks.equal(1L, stored.getCount(), "count of the repeated stream");
    var listed = people.list(people.name("dl"));
    Checks.equal(1, listed.size(), "people listed after the deadline and the repeat");
    Checks.equal(stored.getIds(0), listed.get(0).getId(), "the id the repeat answered");
  }

  void cancelMidStream() throws Exception {
    StreamCollector<RegisterPeopleResponse> answer = new StreamCollector<>();
    var out = (ClientCallStreamObserver<RegisterPeopleRequest>)
        clients.personAsync().withDeadlineAfter(Clients.CALL_SECONDS, TimeUnit.SECONDS).registerPeople(answer);
    for (int i = 0; i < 200; i++) {
      out.onNext(RegisterPeopleRequest.newBuilder().setPerson(People.person(people.name("cancel " + i), i % 150)).build());
    }
    // Give the 200 messages time to reach the server, so the cancel meets a server holding a
    // partial batch (the case under test), not one that never saw it.
    Thread.sleep(500);
    out.cancel("the compatibility driver cancels mid-stream", null);
    Status end = answer.end(Duration.ofSeconds(5), "RegisterPeople cancelled");
    Checks.equal(CANCELLED, end.getCode(), "RegisterPeople cancelled");
    long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    do {
      int listed = people.list(people.name("cancel")).size();
      Checks.equal(0, listed, "people listed after the cancel (a partial batch was stored)");
      Thread.sleep(200);
    } while (System.nanoTime() < until);
  }

  void errorDetails() throws Exception {
    StatusRuntimeException e = Checks.expectStatus(INVALID_ARGUMENT, "RegisterPerson with name \"\" and age 200",
        () -> people.register(People.person("", 200).build()));
    ErrorDetails.expectViolations(e, "RegisterPerson with name \"\" and age 200", "person.name/string.min_len", "person.age/int32.gte_lte");

    Person withId = People.person(people.name("ed id"), 30).setId(UUID.randomUUID().toString()).build();
    e = Checks.expectStatus(INVALID_ARGUMENT, "RegisterPerson with id set", () -> people.register(withId));
    ErrorDetails.expectRule(e, "RegisterPerson with id set", "person.server_fields_unset");

    e = Checks.expectStatus(INVALID_ARGUMENT, "GetPerson(\"not-a-uuid\")", () -> people.get("not-a-uuid"));
    ErrorDetails.expectViolations(e, "GetPerson(\"not-a-uuid\")", "id/string.uuid");

    Checks.expectStatus(NOT_FOUND, "GetPerson(random UUID)", () -> clients.person().getPerson(randomId()));

    String requestId = People.requestId();
    people.register(requestId, People.person(people.name("ed one"), 30).build());
    Checks.expectStatus(ALREADY_EXISTS, "a request_id reused for a different person",
        () -> people.register(requestId, People.person(people.name("ed two"), 31).build()));
  }
}
