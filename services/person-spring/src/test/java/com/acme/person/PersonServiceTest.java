package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.People.registerMany;
import static com.acme.person.People.sync;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import build.buf.validate.Violation;
import build.buf.validate.Violations;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.v1.RegisterPersonResponse;
import com.acme.person.v1.SyncPeopleResponse;
import com.acme.person.validation.FieldPaths;
import com.google.protobuf.Timestamp;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every PersonService RPC through the real server and the generated client. */
class PersonServiceTest extends ServiceTestBase {

  // --- RegisterPerson / GetPerson -------------------------------------------------------

  @Test
  void registerPersonStoresAndGetPersonReadsBack() {
    Person sent = person(uniqueName("ada"), 36);
    Person stored = blocking().registerPerson(register(sent)).getPerson();

    assertThat(UUID.fromString(stored.getId())).isNotNull();
    assertThat(stored.hasCreatedAt()).isTrue();
    assertThat(stored.toBuilder().clearId().clearCreatedAt().build()).isEqualTo(sent);
    assertThat(blocking().getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson())
        .isEqualTo(stored);
  }

  @Test
  void personWithoutAddressStaysWithoutAddress() {
    Person sent = Person.newBuilder().setName(uniqueName("solo")).setAge(0).build();
    Person stored = blocking().registerPerson(register(sent)).getPerson();
    Person read = blocking().getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson();
    assertThat(read.hasAddress()).isFalse();
    assertThat(read.getHobbiesList()).isEmpty();
  }

  @Test
  void registerPersonIsIdempotentOnRequestId() {
    String name = uniqueName("idem");
    RegisterPersonRequest request = register(person(name, 20));

    Person first = blocking().registerPerson(request).getPerson();
    Person again = blocking().registerPerson(request).getPerson();

    assertThat(again).isEqualTo(first);
    assertThat(rowsNamed(name)).isEqualTo(1);
  }

  @Test
  void sameRequestIdForADifferentPersonIsAlreadyExists() {
    String name = uniqueName("conflict");
    RegisterPersonRequest request = register(person(name, 20));
    blocking().registerPerson(request);

    RegisterPersonRequest different = request.toBuilder().setPerson(person(name, 21)).build();
    assertThatThrownBy(() -> blocking().registerPerson(different))
        .isInstanceOfSatisfying(StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS));
    assertThat(rowsNamed(name)).isEqualTo(1);
  }

  @Test
  void invalidPersonIsInvalidArgumentWithFieldPathsAndRuleIds() throws Exception {
    Person bad = Person.newBuilder().setName("").setAge(151).addHobbies("").build();
    StatusRuntimeException e = rejected(() -> blocking().registerPerson(register(bad)));

    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(fieldsAndRules(violationsOf(e)))
        .containsExactlyInAnyOrder(
            "person.name string.min_len", "person.age int32.gte_lte", "person.hobbies[0] string.min_len");
    assertThat(e.getStatus().getDescription()).contains("person.age");
  }

  @Test
  void serverAssignedFieldsAreRefused() throws Exception {
    Person withId = person(uniqueName("x"), 1).toBuilder()
        .setId(UUID.randomUUID().toString())
        .setCreatedAt(Timestamp.newBuilder().setSeconds(1))
        .build();
    StatusRuntimeException e = rejected(() -> blocking().registerPerson(register(withId)));
    assertThat(fieldsAndRules(violationsOf(e))).containsExactly(" person.server_fields_unset");
  }

  @Test
  void missingPersonAndBadRequestIdAreRefused() throws Exception {
    StatusRuntimeException e = rejected(
        () -> blocking().registerPerson(RegisterPersonRequest.newBuilder().setRequestId("nope").build()));
    assertThat(fieldsAndRules(violationsOf(e))).contains("person required", "request_id string.uuid");
  }

  @Test
  void getPersonOfUnknownIdIsNotFound() {
    StatusRuntimeException e = rejected(() -> blocking().getPerson(
        GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build()));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
  }

  @Test
  void getPersonWithMalformedIdIsInvalidArgument() throws Exception {
    StatusRuntimeException e = rejected(
        () -> blocking().getPerson(GetPersonRequest.newBuilder().setId("42; DROP TABLE person").build()));
    assertThat(fieldsAndRules(violationsOf(e))).containsExactly("id string.uuid");
  }

  @Test
  void largestValidPersonRoundTrips() {
    // 1,000 hobbies of 2,048 characters: a ~2 MB message, above gRPC's 1 MB-ish defaults.
    Person big = People.bigPerson(uniqueName("big"), 1000 * 2048);
    assertThat(big.getHobbiesCount()).isEqualTo(1000);
    Person stored = blocking().registerPerson(register(big)).getPerson();
    Person read = blocking().getPerson(GetPersonRequest.newBuilder().setId(stored.getId()).build()).getPerson();
    assertThat(read.getHobbiesList()).isEqualTo(big.getHobbiesList());
  }

  @Test
  void messageAboveTheInboundLimitIsResourceExhausted() {
    // 5,000 hobbies of 2,048 bytes ≈ 10 MB, over the 9 MB limit (and over the rules, but the
    // transport refuses it before anything reads it).
    Person huge = People.bigPerson(uniqueName("huge"), 5000 * 2048);
    StatusRuntimeException e = rejected(() -> blocking().registerPerson(register(huge)));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
  }

  // --- RegisterPeople -------------------------------------------------------------------

  @Test
  void registerPeopleStoresAllAndListsIds() throws Exception {
    String name = uniqueName("many");
    List<RegisterPeopleRequest> requests = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      requests.add(registerMany(person(name + "-" + i, i % 100)));
    }
    RegisterPeopleResponse response = registerPeople(requests, true).get(30, TimeUnit.SECONDS);

    assertThat(response.getCount()).isEqualTo(250);
    assertThat(response.getIdsOmitted()).isFalse();
    assertThat(response.getIdsList()).hasSize(250).doesNotHaveDuplicates();
    assertThat(rowsNamed(name)).isEqualTo(250);
    Person last = blocking().getPerson(GetPersonRequest.newBuilder().setId(response.getIds(249)).build()).getPerson();
    assertThat(last.getName()).isEqualTo(name + "-249");
  }

  @Test
  void registerPeopleStreamsManyPeopleInBatchesAndOmitsIdsPastTenThousand() throws Exception {
    String name = uniqueName("stream");
    Person p = Person.newBuilder().setName(name).setAge(30).build();
    RegisterPeopleRequest request = registerMany(p);
    List<RegisterPeopleRequest> requests = new ArrayList<>();
    for (int i = 0; i < 12_345; i++) {
      requests.add(request);
    }
    RegisterPeopleResponse response = registerPeople(requests, true).get(60, TimeUnit.SECONDS);

    assertThat(response.getCount()).isEqualTo(12_345);
    assertThat(response.getIdsOmitted()).isTrue();
    assertThat(response.getIdsList()).isEmpty();
    assertThat(rowsNamed(name)).isEqualTo(12_345);
  }

  @Test
  void emptyRegisterPeopleStreamStoresNothing() throws Exception {
    RegisterPeopleResponse response = registerPeople(List.of(), true).get(10, TimeUnit.SECONDS);
    assertThat(response.getCount()).isZero();
    assertThat(response.getIdsList()).isEmpty();
  }

  @Test
  void clientCancellingMidStreamLeavesNoRows() throws Exception {
    String name = uniqueName("cancel");
    List<RegisterPeopleRequest> requests = new ArrayList<>();
    for (int i = 0; i < 350; i++) {
      requests.add(registerMany(person(name, 30)));
    }
    // 350 people (3 full batches of 100 written inside the transaction), then the client
    // fails its stream instead of completing it.
    CompletableFuture<RegisterPeopleResponse> response = registerPeople(requests, false);

    Throwable failure = response.handle((ok, err) -> err).get(30, TimeUnit.SECONDS);
    assertThat(Status.fromThrowable(failure).getCode()).isEqualTo(Status.Code.CANCELLED);
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isZero();
  }

  @Test
  void invalidPersonMidStreamFailsTheStreamAndLeavesNoRows() throws Exception {
    String name = uniqueName("midbad");
    List<RegisterPeopleRequest> requests = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      requests.add(registerMany(person(name, 30)));
    }
    requests.add(registerMany(person(name, 200)));
    for (int i = 0; i < 10; i++) {
      requests.add(registerMany(person(name, 30)));
    }
    Throwable failure = registerPeople(requests, true).handle((ok, err) -> err).get(30, TimeUnit.SECONDS);

    StatusRuntimeException e = (StatusRuntimeException) failure;
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(e.getStatus().getDescription()).contains("message 150 ");
    assertThat(fieldsAndRules(violationsOf(e))).containsExactly("person.age int32.gte_lte");
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isZero();
  }

  // --- RegisterPeople with a request_id ---------------------------------------------------

  @Test
  void aRepeatedStreamIsStoredOnceAndAnsweredWithTheSameIds() throws Exception {
    String name = uniqueName("retry");
    List<RegisterPeopleRequest> stream = withRequestId(UUID.randomUUID().toString(), name, 150);
    RegisterPeopleResponse first = registerPeople(stream, true).get(30, TimeUnit.SECONDS);
    RegisterPeopleResponse again = registerPeople(stream, true).get(30, TimeUnit.SECONDS);

    assertThat(first.getCount()).isEqualTo(150);
    assertThat(again).isEqualTo(first);
    assertThat(rowsNamed(name)).isEqualTo(150);
  }

  @Test
  void theRequestIdOfAStreamWithOtherPeopleIsAlreadyExists() throws Exception {
    String requestId = UUID.randomUUID().toString();
    String name = uniqueName("retry-other");
    registerPeople(withRequestId(requestId, name, 3), true).get(30, TimeUnit.SECONDS);
    Throwable failure = registerPeople(withRequestId(requestId, name, 4), true)
        .handle((ok, err) -> err).get(30, TimeUnit.SECONDS);

    assertThat(Status.fromThrowable(failure).getCode()).isEqualTo(Status.Code.ALREADY_EXISTS);
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isEqualTo(3);
  }

  @Test
  void aLaterMessageNamingAnotherRequestIdIsInvalidArgument() throws Exception {
    String name = uniqueName("two-ids");
    List<RegisterPeopleRequest> stream = new ArrayList<>(withRequestId(UUID.randomUUID().toString(), name, 5));
    stream.add(registerMany(person(name, 1)).toBuilder().setRequestId(UUID.randomUUID().toString()).build());
    Throwable failure = registerPeople(stream, true).handle((ok, err) -> err).get(30, TimeUnit.SECONDS);

    StatusRuntimeException e = (StatusRuntimeException) failure;
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(e.getStatus().getDescription()).contains("message 5 ");
    assertThat(fieldsAndRules(violationsOf(e))).containsExactly("request_id request_id.same_for_the_stream");
    awaitStreamWorkersIdle();
    assertThat(rowsNamed(name)).isZero();
  }

  @Test
  void twoCopiesOfAStreamSentAtOnceAreStoredOnce() throws Exception {
    String name = uniqueName("race");
    List<RegisterPeopleRequest> stream = withRequestId(UUID.randomUUID().toString(), name, 400);
    CompletableFuture<RegisterPeopleResponse> a = registerPeople(stream, true);
    CompletableFuture<RegisterPeopleResponse> b = registerPeople(stream, true);

    assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(b.get(30, TimeUnit.SECONDS));
    assertThat(rowsNamed(name)).isEqualTo(400);
  }

  @Test
  void aRepeatedStreamOfMoreThanTenThousandPeopleGetsItsCountAgain() throws Exception {
    String name = uniqueName("retry-big");
    List<RegisterPeopleRequest> stream = withRequestId(UUID.randomUUID().toString(), name, 10_001);
    RegisterPeopleResponse first = registerPeople(stream, true).get(60, TimeUnit.SECONDS);
    RegisterPeopleResponse again = registerPeople(stream, true).get(60, TimeUnit.SECONDS);

    assertThat(first.getIdsOmitted()).isTrue();
    assertThat(again).isEqualTo(first);
    assertThat(rowsNamed(name)).isEqualTo(10_001);
  }

  /** count people named name-i, the first message carrying requestId. */
  private static List<RegisterPeopleRequest> withRequestId(String requestId, String name, int count) {
    List<RegisterPeopleRequest> stream = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      RegisterPeopleRequest r = registerMany(person(name + "-" + i, i % 100));
      stream.add(i == 0 ? r.toBuilder().setRequestId(requestId).build() : r);
    }
    return stream;
  }

  // --- ListPeople -----------------------------------------------------------------------

  @Test
  void listPeopleFiltersAndPagesInCreationOrder() {
    String name = uniqueName("Lister");
    for (int age = 0; age < 30; age++) {
      blocking().registerPerson(register(person(name, age)));
    }
    String query = name.toUpperCase(); // name_contains ignores case

    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query).setLimit(10).setPage(1)))
        .containsExactly(10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query).setMinAge(25)))
        .containsExactly(25, 26, 27, 28, 29);
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query).setMinAge(3).setMaxAge(5)))
        .containsExactly(3, 4, 5);
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query))).hasSize(30);
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query).setLimit(7).setPage(4)))
        .containsExactly(28, 29);
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(query).setPage(1))).isEmpty();
  }

  @Test
  void listPeopleTreatsLikeWildcardsLiterally() {
    String name = uniqueName("wild");
    blocking().registerPerson(register(person(name + "_%", 1)));
    blocking().registerPerson(register(person(name + "ab", 2)));
    assertThat(ages(ListPeopleRequest.newBuilder().setNameContains(name + "_%"))).containsExactly(1);
  }

  @Test
  void listPeopleStreamsMoreThanOneMegabyte() {
    String name = uniqueName("heavy");
    for (int i = 0; i < 12; i++) {
      blocking().registerPerson(register(People.bigPerson(name, 100 * 1024)));
    }
    long bytes = 0;
    int count = 0;
    Iterator<ListPeopleResponse> it = blocking().listPeople(ListPeopleRequest.newBuilder().setNameContains(name).build());
    while (it.hasNext()) {
      bytes += it.next().getSerializedSize();
      count++;
    }
    assertThat(count).isEqualTo(12);
    assertThat(bytes).isGreaterThan(1024 * 1024);
  }

  @Test
  void listPeopleWithInvertedAgeRangeIsInvalidArgument() throws Exception {
    StatusRuntimeException e = rejected(() -> blocking()
        .listPeople(ListPeopleRequest.newBuilder().setMinAge(9).setMaxAge(3).build())
        .hasNext());
    assertThat(fieldsAndRules(violationsOf(e))).containsExactly(" age_range.ordered");
  }

  // --- SyncPeople -----------------------------------------------------------------------

  @Test
  void syncPeopleAnswersEachItemAndBadItemsDoNotEndTheStream() throws Exception {
    String name = uniqueName("sync");
    String a = UUID.randomUUID().toString();
    String b = UUID.randomUUID().toString();
    String c = UUID.randomUUID().toString();
    List<com.acme.person.v1.SyncPeopleRequest> items = List.of(
        sync(a, person(name, 1)),
        sync(b, person(name, -1)),            // invalid age
        sync(c, person(name, 3)),
        sync(a, person(name, 1)),             // retry of a: same answer
        sync(a, person(name, 99)),            // a again, different person: conflict
        sync("not-a-uuid", person(name, 5))); // invalid request_id: answered without it

    List<SyncPeopleResponse> answers = syncPeople(items).get(30, TimeUnit.SECONDS);

    assertThat(answers).hasSize(6);
    assertThat(answers.get(0).getRequestId()).isEqualTo(a);
    assertThat(answers.get(0).hasId()).isTrue();
    assertThat(answers.get(1).getRequestId()).isEqualTo(b);
    assertThat(answers.get(1).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(fieldsAndRules(answers.get(1).getError().getViolationsList())).containsExactly("person.age int32.gte_lte");
    assertThat(answers.get(2).getRequestId()).isEqualTo(c);
    assertThat(answers.get(2).hasId()).isTrue();
    assertThat(answers.get(3).getId()).isEqualTo(answers.get(0).getId());
    assertThat(answers.get(4).getError().getCode()).isEqualTo(Status.Code.ALREADY_EXISTS.value());
    assertThat(answers.get(5).getRequestId()).isEmpty();
    assertThat(fieldsAndRules(answers.get(5).getError().getViolationsList())).containsExactly("request_id string.uuid");
    assertThat(rowsNamed(name)).isEqualTo(2);
  }

  // --- helpers --------------------------------------------------------------------------

  private List<Integer> ages(ListPeopleRequest.Builder request) {
    List<Integer> ages = new ArrayList<>();
    blocking().listPeople(request.build()).forEachRemaining(r -> ages.add(r.getPerson().getAge()));
    return ages;
  }

  /** Sends requests; completes the stream, or fails it (a client-side cancel) when !complete. */
  private CompletableFuture<RegisterPeopleResponse> registerPeople(List<RegisterPeopleRequest> requests, boolean complete)
      throws InterruptedException {
    CompletableFuture<RegisterPeopleResponse> result = new CompletableFuture<>();
    StreamObserver<RegisterPeopleRequest> out = async().registerPeople(new StreamObserver<>() {
      private RegisterPeopleResponse response;

      @Override
      public void onNext(RegisterPeopleResponse value) {
        response = value;
      }

      @Override
      public void onError(Throwable t) {
        result.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        result.complete(response);
      }
    });
    for (RegisterPeopleRequest r : requests) {
      out.onNext(r);
    }
    if (complete) {
      out.onCompleted();
    } else {
      Thread.sleep(500); // let the server take (and write) what was sent before giving up
      out.onError(new IllegalStateException("the client gives up"));
    }
    return result;
  }

  private CompletableFuture<List<SyncPeopleResponse>> syncPeople(List<com.acme.person.v1.SyncPeopleRequest> items) {
    CompletableFuture<List<SyncPeopleResponse>> result = new CompletableFuture<>();
    List<SyncPeopleResponse> answers = new ArrayList<>();
    StreamObserver<com.acme.person.v1.SyncPeopleRequest> out = async().syncPeople(new StreamObserver<>() {
      @Override
      public void onNext(SyncPeopleResponse value) {
        answers.add(value);
      }

      @Override
      public void onError(Throwable t) {
        result.completeExceptionally(t);
      }

      @Override
      public void onCompleted() {
        result.complete(answers);
      }
    });
    items.forEach(out::onNext);
    out.onCompleted();
    return result;
  }

  static StatusRuntimeException rejected(Runnable call) {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      return e;
    }
    throw new AssertionError("the call succeeded but should have failed");
  }

  static List<String> fieldsAndRules(Violations violations) {
    return fieldsAndRules(violations.getViolationsList());
  }

  static List<String> fieldsAndRules(List<Violation> violations) {
    return violations.stream().map(v -> FieldPaths.toText(v.getField()) + " " + v.getRuleId()).toList();
  }
}
