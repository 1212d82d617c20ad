package com.acme.person.bench;

import com.acme.person.domain.AddressDto;
import com.acme.person.domain.PersonDto;
import com.acme.person.mapping.PersonMapper;
import com.acme.person.mapping.ProtoTimes;
import com.acme.person.v1.Address;
import com.acme.person.v1.Person;

/**
 * The hand-written mapper: the baseline the service's MapStruct mapper is measured against
 * (MappingBenchmark). Only the benchmarks use it; MapperEquivalenceTest keeps the two equal.
 */
public final class HandWrittenPersonMapper implements PersonMapper {

  @Override
  public Person toProto(PersonDto person) {
    // Protobuf setters reject null; a DTO from JSON may carry nulls, which map to unset.
    Person.Builder b = Person.newBuilder().setAge(person.age()).addAllHobbies(person.hobbies());
    if (person.id() != null) {
      b.setId(person.id());
    }
    if (person.name() != null) {
      b.setName(person.name());
    }
    if (person.address() != null) {
      Address.Builder address = Address.newBuilder();
      if (person.address().city() != null) {
        address.setCity(person.address().city());
      }
      if (person.address().zipCode() != null) {
        address.setZipCode(person.address().zipCode());
      }
      b.setAddress(address);
    }
    if (person.createdAt() != null) {
      b.setCreatedAt(ProtoTimes.toTimestamp(person.createdAt()));
    }
    return b.build();
  }

  @Override
  public PersonDto fromProto(Person person) {
    return new PersonDto(
        person.getId().isEmpty() ? null : person.getId(),
        person.getName(),
        person.getAge(),
        person.getHobbiesList(),
        person.hasAddress()
            ? new AddressDto(person.getAddress().getCity(), person.getAddress().getZipCode())
            : null,
        person.hasCreatedAt() ? ProtoTimes.toInstant(person.getCreatedAt()) : null);
  }
}
