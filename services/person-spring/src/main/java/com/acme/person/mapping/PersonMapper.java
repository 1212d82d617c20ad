package com.acme.person.mapping;

import com.acme.person.domain.PersonDto;
import com.acme.person.v1.Person;

/**
 * DTO ↔ protobuf mapping of a person. Two implementations exist on purpose: MapStruct's, which
 * the service uses, and a hand-written one that the benchmarks compare it with; a test proves
 * they agree.
 */
public interface PersonMapper {

  Person toProto(PersonDto person);

  PersonDto fromProto(Person person);
}
