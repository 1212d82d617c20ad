package com.acme.person.domain;

import java.time.Instant;
import java.util.List;

/**
 * A person as the domain sees it: a plain record, free of protobuf. id and createdAt are null
 * until the person is stored; address is null when the person has none.
 */
public record PersonDto(
    String id, String name, int age, List<String> hobbies, AddressDto address, Instant createdAt) {

  public PersonDto {
    hobbies = hobbies == null ? List.of() : List.copyOf(hobbies);
  }

  /** This person as stored under the given id at the given time. */
  public PersonDto stored(String newId, Instant storedAt) {
    return new PersonDto(newId, name, age, hobbies, address, storedAt);
  }

  /** How many characters of text this person carries (name, hobbies, address): what it weighs. */
  public long chars() {
    long n = length(name);
    for (String hobby : hobbies) {
      n += length(hobby);
    }
    if (address != null) {
      n += length(address.city()) + length(address.zipCode());
    }
    return n;
  }

  private static int length(String s) {
    return s == null ? 0 : s.length();
  }
}
