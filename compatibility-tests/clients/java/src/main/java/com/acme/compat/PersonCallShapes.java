package com.acme.compat;

import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.SyncPeopleRequest;
import com.acme.person.v1.SyncPeopleResponse;
import com.google.protobuf.util.Timestamps;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** person-spring's four call shapes: unary, client-stream, server-stream, bidi. */
final class PersonCallShapes {
  private static final Duration WAIT = Duration.ofSeconds(Clients.CALL_SECONDS);
  private final Clients clients;
  private final People people;

  PersonCallShapes(Clients clients) {
    this.clients = clients;
    this.people = new People(clients);
  }

  void unary() {
    Person sent =
        People.person(people.name("unary"), 42)
            .addHobbies("chess")
            .addHobbies("go")
            .setAddress(People.address("Zurich", "8001"))
            .build();
    String requestId = People.requestId();
    Person stored = people.register(requestId, sent);
    People.expectStored(sent, stored, "RegisterPerson");
    Checks.equal(stored, people.get(stored.getId()), "GetPerson");
    Checks.equal(stored.getId(), people.register(requestId, sent).getId(), "id of the same request sent again");
  }

  void clientStream() throws InterruptedException {
    StreamCollector<RegisterPeopleResponse> answer = new StreamCollector<>();
    StreamObserver<RegisterPeopleRequest> out =
        clients.personAsync().withDeadlineAfter(Clients.CALL_SECONDS, TimeUnit.SECONDS).registerPeople(answer);
    for (int i = 0; i < 25; i++) {
      out.onNext(RegisterPeopleRequest.newBuilder().setPerson(People.person(people.name("cs " + i), i)).build());
    }
    out.onCompleted();
    RegisterPeopleResponse response = answer.next(WAIT, "RegisterPeople");
    Status end = answer.end(WAIT, "RegisterPeople");
    Checks.that(end.isOk(), "RegisterPeople ended with " + StreamCollector.describe(end));
    Checks.equal(25L, response.getCount(), "count");
    Checks.equal(false, response.getIdsOmitted(), "ids_omitted");
    Checks.equal(25, response.getIdsCount(), "number of ids");
    Checks.equal(25, new HashSet<>(response.getIdsList()).size(), "number of distinct ids");
    Checks.equal(people.name("cs 7"), people.get(response.getIds(7)).getName(), "name of GetPerson(ids[7])");
  }

  void serverStream() {
    Set<String> registered = new HashSet<>();
    for (int i = 0; i < 5; i++) {
      registered.add(people.register(People.person(people.name("ss " + i), 20 + i).build()).getId());
    }
    ListPeopleRequest first = ListPeopleRequest.newBuilder().setNameContains(people.name("ss")).setLimit(3).build();
    List<Person> page0 = people.list(first);
    List<Person> page1 = people.list(first.toBuilder().setPage(1).build());
    Checks.equal(3, page0.size(), "people on page 0 (limit 3)");
    Checks.equal(2, page1.size(), "people on page 1 (limit 3)");
    expectCreatedAtNeverDecreases(page0, "page 0");
    expectCreatedAtNeverDecreases(page1, "page 1");
    Set<String> listed = new HashSet<>();
    page0.forEach(p -> listed.add(p.getId()));
    page1.forEach(p -> listed.add(p.getId()));
    Checks.equal(registered, listed, "ids of both pages together");
  }

  private static void expectCreatedAtNeverDecreases(List<Person> stream, String what) {
    for (int i = 1; i < stream.size(); i++) {
      Checks.that(
          Timestamps.compare(stream.get(i - 1).getCreatedAt(), stream.get(i).getCreatedAt()) <= 0,
          what + ": created_at decreases at position " + i);
    }
  }

  void bidi() throws Exception {
    Person a = People.person(people.name("bidi a"), 30).build();
    Person b = People.person(people.name("bidi b"), 200).build();
    Person c = People.person(people.name("bidi c"), 31).build();
    String requestA = People.requestId();

    StreamCollector<SyncPeopleResponse> answers = new StreamCollector<>();
    StreamObserver<SyncPeopleRequest> out = syncStream(answers);
    String idA = expectId(exchange(out, answers, requestA, a), "A");
    SyncPeopleResponse answerB = exchange(out, answers, People.requestId(), b);
    Checks.equal(SyncPeopleResponse.ResultCase.ERROR, answerB.getResultCase(), "B's answer");
    Checks.equal(3, answerB.getError().getCode(), "B's error code");
    List<String> violations = ErrorDetails.names(answerB.getError().getViolationsList());
    Checks.that(violations.contains("person.age/int32.gte_lte"), "B: no violation person.age/int32.gte_lte among " + violations);
    expectId(exchange(out, answers, People.requestId(), c), "C");
    out.onCompleted();
    Status end = answers.end(WAIT, "SyncPeople after half-close");
    Checks.that(end.isOk(), "SyncPeople ended with " + StreamCollector.describe(end));

    // A retry on a new stream (same request_id, same person) is answered with the first id.
    StreamCollector<SyncPeopleResponse> again = new StreamCollector<>();
    StreamObserver<SyncPeopleRequest> retry = syncStream(again);
    Checks.equal(idA, expectId(exchange(retry, again, requestA, a), "A resent"), "id of A resent on a second stream");
    retry.onCompleted();
    Status retryEnd = again.end(WAIT, "second SyncPeople after half-close");
    Checks.that(retryEnd.isOk(), "second SyncPeople ended with " + StreamCollector.describe(retryEnd));
  }

  private StreamObserver<SyncPeopleRequest> syncStream(StreamCollector<SyncPeopleResponse> answers) {
    return clients.personAsync().withDeadlineAfter(Clients.CALL_SECONDS, TimeUnit.SECONDS).syncPeople(answers);
  }

  /** Sends one item and reads its answer before the next is sent, as the README asks. */
  private static SyncPeopleResponse exchange(
      StreamObserver<SyncPeopleRequest> out, StreamCollector<SyncPeopleResponse> answers, String requestId, Person person)
      throws InterruptedException {
    out.onNext(SyncPeopleRequest.newBuilder().setRequestId(requestId).setPerson(person).build());
    SyncPeopleResponse answer = answers.next(WAIT, "answer to " + person.getName());
    Checks.equal(requestId, answer.getRequestId(), "request_id repeated in the answer to " + person.getName());
    return answer;
  }

  private static String expectId(SyncPeopleResponse answer, String what) {
    Checks.equal(SyncPeopleResponse.ResultCase.ID, answer.getResultCase(), what + "'s answer (" + Checks.show(answer) + ")");
    Checks.uuid(answer.getId(), what + "'s id");
    return answer.getId();
  }
}
