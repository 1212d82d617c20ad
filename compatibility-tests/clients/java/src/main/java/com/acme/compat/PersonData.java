package com.acme.compat;

import static io.grpc.Status.Code.INVALID_ARGUMENT;

import com.acme.person.v1.Address;
import com.acme.person.v1.ListPeopleRequest;
import com.acme.person.v1.Person;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** person-spring and the data itself: large messages, Unicode, field presence. */
final class PersonData {
  /**
   * The README's name after the run id, escaped so every code point is visible: a ZWJ
   * sequence (👩‍💻), Arabic, and "e" followed by a combining acute accent (not "é").
   */
  static final String UNICODE_NAME =
      "Zo\u00eb \u00d8deg\u00e5rd \u674e\u96f7 \uD83D\uDC69\u200D\uD83D\uDCBB "
          + "\u0645\u0631\u062d\u0628\u0627 e\u0301 \uD83D\uDE80";

  private static final String ROCKET = "\uD83D\uDE80";
  private final People people;

  PersonData(Clients clients) {
    this.people = new People(clients);
  }

  void largeMessage() {
    Person.Builder builder = People.person(people.name("large"), 60);
    for (int i = 0; i < 500; i++) {
      // Each hobby distinct (its number first), so a reordering or mix-up cannot compare equal.
      builder.addHobbies(String.format("%04d", i) + "x".repeat(2048 - 4));
    }
    Person sent = builder.build();
    Checks.that(People.request(People.requestId(), sent).getSerializedSize() > 1_000_000, "the request is not over 1 MB");
    Person stored = people.register(sent);
    People.expectStored(sent, stored, "RegisterPerson");
    Checks.that(people.get(stored.getId()).toByteString().equals(stored.toByteString()), "GetPerson differs from what was stored");
    List<Person> listed = people.list(people.name("large"));
    Checks.equal(1, listed.size(), "people listed");
    Checks.that(listed.get(0).toByteString().equals(stored.toByteString()), "ListPeople differs from what was stored");
  }

  void unicode() throws Exception {
    String name = people.name(UNICODE_NAME);
    Person sent =
        People.person(name, 33)
            .addHobbies("\u65e5\u672c\u8a9e")
            .addHobbies("\uD83C\uDFB8")
            .setAddress(People.address("Z\u00fcrich", "8001"))
            .build();
    Person stored = people.register(sent);
    People.expectStored(sent, stored, "RegisterPerson");
    expectSameCodePoints(sent, people.get(stored.getId()), "GetPerson");
    List<Person> listed = people.list(name);
    Checks.equal(1, listed.size(), "people listed by the Unicode name");
    expectSameCodePoints(sent, listed.get(0), "ListPeople");

    // Limits count code points: 200 rockets are 400 UTF-16 units and 800 bytes, yet valid.
    String rockets = ROCKET.repeat(200);
    Person longest = people.register(People.person(rockets, 20).build());
    Checks.equal(rockets, people.get(longest.getId()).getName(), "GetPerson of 200 × 🚀");
    var e = Checks.expectStatus(INVALID_ARGUMENT, "RegisterPerson with 201 × 🚀",
        () -> people.register(People.person(ROCKET.repeat(201), 20).build()));
    ErrorDetails.expectViolations(e, "RegisterPerson with 201 × 🚀", "person.name/string.max_len");
  }

  private static void expectSameCodePoints(Person sent, Person got, String what) {
    Checks.equal(codePoints(sent.getName()), codePoints(got.getName()), what + " name code points");
    Checks.equal(sent.getHobbiesList(), got.getHobbiesList(), what + " hobbies");
    Checks.equal(sent.getAddress().getCity(), got.getAddress().getCity(), what + " city");
  }

  private static String codePoints(String s) {
    return s.codePoints().mapToObj(c -> String.format("U+%04X", c)).collect(Collectors.joining(" "));
  }

  void fieldPresence() throws Exception {
    Person bare = People.person(people.name("noaddr"), 25).build();
    Person stored = people.register(bare);
    Checks.that(!stored.hasAddress(), "RegisterPerson answered with an address: " + Checks.show(stored.getAddress()));
    Checks.that(!people.get(stored.getId()).hasAddress(), "GetPerson read back an address for a person without one");

    // An empty message is present on the wire (tag + length 0), so its rules apply.
    var e = Checks.expectStatus(INVALID_ARGUMENT, "RegisterPerson with an empty Address",
        () -> people.register(People.person(people.name("emptyaddr"), 25).setAddress(Address.getDefaultInstance()).build()));
    ErrorDetails.expectViolations(e, "RegisterPerson with an empty Address", "person.address.city/string.min_len");

    String zero = people.register(People.person(people.name("fp 0"), 0).build()).getId();
    String thirty = people.register(People.person(people.name("fp 30"), 30).build()).getId();
    ListPeopleRequest filter = ListPeopleRequest.newBuilder().setNameContains(people.name("fp")).build();
    Checks.equal(List.of(zero), ids(people.list(filter.toBuilder().setMaxAge(0).build())), "ids listed with max_age 0");
    Checks.equal(Set.of(zero, thirty), Set.copyOf(ids(people.list(filter))), "ids listed without max_age");
    Checks.equal(2, people.list(filter).size(), "people listed without max_age");
  }

  private static List<String> ids(List<Person> list) {
    return list.stream().map(Person::getId).toList();
  }
}
