package com.acme.compat;

import com.acme.person.v1.Address;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.ListPeopleResponse;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPersonRequest;
import com.google.protobuf.util.Timestamps;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;

/** The Person registry calls the features share, as the admin, through the SDK's stubs. */
final class People {
  private final Clients clients;

  People(Clients clients) {
    this.clients = clients;
  }

  /** "<run> suffix": every name starts with the run id, so runs never see each other's data. */
  String name(String suffix) {
    return clients.run() + " " + suffix;
  }

  static Person.Builder person(String name, int age) {
    return Person.newBuilder().setName(name).setAge(age);
  }

  static Address address(String city, String zip) {
    return Address.newBuilder().setCity(city).setZipCode(zip).build();
  }

  static String requestId() {
    return UUID.randomUUID().toString();
  }

  static RegisterPersonRequest request(String requestId, Person person) {
    return RegisterPersonRequest.newBuilder().setRequestId(requestId).setPerson(person).build();
  }

  Person register(Person person) {
    return register(requestId(), person);
  }

  Person register(String requestId, Person person) {
    return clients.person().registerPerson(request(requestId, person)).getPerson();
  }

  Person get(String id) {
    return clients.person().getPerson(GetPersonRequest.newBuilder().setId(id).build()).getPerson();
  }

  List<Person> list(ListPeopleRequest request) {
    List<Person> people = new ArrayList<>();
    Iterator<ListPeopleResponse> stream = clients.person().listPeople(request);
    stream.forEachRemaining(r -> people.add(r.getPerson()));
    return people;
  }

  List<Person> list(String nameContains) {
    return list(ListPeopleRequest.newBuilder().setNameContains(nameContains).build());
  }

  /**
   * Checks what the registry answered for a person it stored: a UUID id, created_at set, and
   * every other field exactly what was sent.
   */
  static void expectStored(Person sent, Person got, String what) {
    Checks.uuid(got.getId(), what + " id");
    Checks.that(got.hasCreatedAt(), what + ": created_at is not set");
    Checks.that(Timestamps.isValid(got.getCreatedAt()), what + ": created_at is not a valid timestamp");
    Checks.equal(sent, got.toBuilder().clearId().clearCreatedAt().build(), what + " (besides id and created_at)");
  }
}
