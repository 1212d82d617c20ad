package com.acme.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.person.v1.Address;
import com.acme.person.v1.Person;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.Test;

/** The SDK's messages survive the binary and the canonical JSON encodings unchanged. */
class PersonRoundTripTest {

  static Person samplePerson() {
    return Person.newBuilder()
        .setId("5b0e7c1e-3f0a-4d4e-9a51-0c6b1f2a9e11")
        .setName("Polar Penguin ❄")
        .setAge(20)
        .addHobbies("swimming")
        .addHobbies("sliding")
        .setAddress(Address.newBuilder().setCity("Zürich").setZipCode("8001"))
        .setCreatedAt(Timestamp.newBuilder().setSeconds(1_764_000_000L).setNanos(123_000_000))
        .build();
  }

  @Test
  void binaryRoundTrip() throws Exception {
    Person person = samplePerson();
    byte[] wire = person.toByteArray();
    assertEquals(person, Person.parseFrom(wire));
  }

  @Test
  void jsonRoundTripUsesProtoJsonNames() throws Exception {
    Person person = samplePerson();
    String json = JsonFormat.printer().print(person);
    assertTrue(json.contains("\"zipCode\": \"8001\""), json);
    assertTrue(json.contains("\"createdAt\": \"2025-11-24T16:00:00.123Z\""), json);
    Person.Builder parsed = Person.newBuilder();
    JsonFormat.parser().merge(json, parsed);
    assertEquals(person, parsed.build());
  }

  @Test
  void absentAddressStaysAbsent() throws Exception {
    Person noAddress = samplePerson().toBuilder().clearAddress().build();
    Person emptyAddress = samplePerson().toBuilder().setAddress(Address.getDefaultInstance()).build();
    assertFalse(Person.parseFrom(noAddress.toByteArray()).hasAddress());
    assertTrue(Person.parseFrom(emptyAddress.toByteArray()).hasAddress());
  }

  @Test
  void smallPersonHasTheDocumentedWireSize() {
    // The field report's example: name "polar penguin", age 20 encodes to 17 bytes.
    Person small = Person.newBuilder().setName("polar penguin").setAge(20).build();
    assertEquals(17, small.getSerializedSize());
  }
}
