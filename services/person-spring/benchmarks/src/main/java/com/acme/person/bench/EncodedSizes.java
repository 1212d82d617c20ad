package com.acme.person.bench;

import com.acme.person.domain.PersonDto;
import tools.jackson.databind.json.JsonMapper;

/** Prints "size protobufBytes jsonBytes" per sample person, for the benchmark table. */
public final class EncodedSizes {
  private EncodedSizes() {}

  public static void main(String[] args) {
    JsonMapper json = JsonMapper.builder().build();
    HandWrittenPersonMapper mapper = new HandWrittenPersonMapper();
    for (String size : SamplePeople.SIZES) {
      PersonDto person = SamplePeople.of(size);
      System.out.println(size + " " + mapper.toProto(person).getSerializedSize() + " "
          + json.writeValueAsBytes(person).length);
    }
  }
}
