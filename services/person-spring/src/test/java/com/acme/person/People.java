package com.acme.person;

import com.acme.person.v1.Address;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPersonRequest;
import com.acme.person.v1.SyncPeopleRequest;
import java.util.UUID;

/** Test people and the request messages that carry them. */
public final class People {
  private People() {}

  /** A name no other test uses, so tests can count their own rows in a shared database. */
  public static String uniqueName(String what) {
    return what + "-" + UUID.randomUUID();
  }

  public static Person person(String name, int age) {
    return Person.newBuilder()
        .setName(name)
        .setAge(age)
        .addHobbies("chess")
        .addHobbies("hiking")
        .setAddress(Address.newBuilder().setCity("Zürich").setZipCode("8001"))
        .build();
  }

  /** A person whose hobbies total about bytes bytes (hobbies of 2,048 characters). */
  public static Person bigPerson(String name, int bytes) {
    Person.Builder p = Person.newBuilder().setName(name).setAge(40);
    String hobby = "x".repeat(2048);
    for (int total = 0; total < bytes; total += hobby.length()) {
      p.addHobbies(hobby);
    }
    return p.build();
  }

  public static RegisterPersonRequest register(Person person) {
    return RegisterPersonRequest.newBuilder()
        .setRequestId(UUID.randomUUID().toString())
        .setPerson(person)
        .build();
  }

  public static RegisterPeopleRequest registerMany(Person person) {
    return RegisterPeopleRequest.newBuilder().setPerson(person).build();
  }

  public static SyncPeopleRequest sync(String requestId, Person person) {
    return SyncPeopleRequest.newBuilder().setRequestId(requestId).setPerson(person).build();
  }
}
