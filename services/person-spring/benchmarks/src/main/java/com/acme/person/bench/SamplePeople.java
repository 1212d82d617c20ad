package com.acme.person.bench;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The three sizes of person the mapping benchmarks measure — name and age only; every field;
 * about 100 KB of hobbies — each as a stored person (id and created_at set) looks.
 */
public final class SamplePeople {
  private SamplePeople() {}

  public static final List<String> SIZES = List.of("small", "medium", "large");

  public static PersonDto of(String size) {
    String id = "6f1c1b54-0c8e-4b8f-9d59-6a4f3e1f2a10";
    Instant created = Instant.parse("2026-05-01T12:34:56.123456Z");
    return switch (size) {
      // name and age only
      case "small" -> new PersonDto(null, "Ada Lovelace", 36, List.of(), null, null);
      // every field, three hobbies
      case "medium" -> new PersonDto(id, "Grace Brewster Hopper", 85,
          List.of("sailing", "compilers", "teaching nanoseconds"),
          new AddressDto("Arlington", "22201"), created);
      // hobbies totalling about 100 KB: 50 of 2,048 characters
      case "large" -> {
        List<String> hobbies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          hobbies.add(String.valueOf((char) ('a' + i % 26)).repeat(2048));
        }
        yield new PersonDto(id, "Katherine Johnson", 101, hobbies,
            new AddressDto("Hampton", "23666"), created);
      }
      default -> throw new IllegalArgumentException(size);
    };
  }
}
