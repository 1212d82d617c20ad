package com.acme.person.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import com.acme.person.mapping.MapStructPersonMapperImpl;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.v1.Person;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MapStruct's mapper and the hand-written one give identical results, both ways, so the
 * benchmark compares two mappers that do the same work.
 */
class MapperEquivalenceTest {

  private final PersonMapper mapstruct = new MapStructPersonMapperImpl();
  private final PersonMapper hand = new HandWrittenPersonMapper();

  static Stream<PersonDto> people() {
    List<String> many = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      many.add("hobby " + i);
    }
    return Stream.of(
        new PersonDto(null, "Ada", 36, null, null, null),
        new PersonDto(null, "", 0, List.of(), null, null),
        new PersonDto(null, null, 7, List.of("x"), new AddressDto(null, "8001"), null),
        new PersonDto("6f1c1b54-0c8e-4b8f-9d59-6a4f3e1f2a10", "Grace Hopper", 85,
            List.of("navy", "compilers", "nanoseconds"), new AddressDto("Arlington", "22201"),
            Instant.parse("2024-05-01T12:34:56.123456Z")),
        new PersonDto(null, "Many", 150, many, new AddressDto("Zürich", "8001"), Instant.EPOCH));
  }

  @ParameterizedTest
  @MethodSource("people")
  void toProtoAgrees(PersonDto person) {
    Person expected = hand.toProto(person);
    assertThat(mapstruct.toProto(person)).isEqualTo(expected);
  }

  @ParameterizedTest
  @MethodSource("people")
  void fromProtoAgreesAndRoundTrips(PersonDto person) {
    Person proto = hand.toProto(person);
    assertThat(mapstruct.fromProto(proto)).isEqualTo(hand.fromProto(proto));
    PersonDto back = mapstruct.fromProto(proto);
    // Proto3 strings cannot be null: a null name or city comes back as "".
    assertThat(back.hobbies()).isEqualTo(person.hobbies());
    assertThat(back.id()).isEqualTo(person.id());
    assertThat(back.createdAt()).isEqualTo(person.createdAt());
    assertThat(back.address() == null).isEqualTo(person.address() == null);
  }
}
