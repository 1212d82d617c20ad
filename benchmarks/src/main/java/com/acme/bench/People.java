package com.acme.bench;

import com.acme.person.v1.Address;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPersonRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The people the scenarios send: the reports' "polar penguin" and valid persons grown to a
 * payload size by hobbies (at most 1,000 of at most 2,048 characters: person.proto), so every
 * size up to 1 MB is a request the service accepts.
 */
final class People {
  private People() {}

  /** The reports' person: {"name":"polar penguin","age":20}. */
  static Person penguin() {
    return Person.newBuilder().setName("polar penguin").setAge(20).build();
  }

  /** A valid person whose RegisterPersonRequest encodes to about bytes (within a few bytes). */
  static Person ofSize(int bytes) {
    Person.Builder person =
        Person.newBuilder()
            .setName("polar penguin")
            .setAge(20)
            .setAddress(Address.newBuilder().setCity("Longyearbyen").setZipCode("9170"));
    int base = request(person.build()).getSerializedSize();
    int left = bytes - base;
    if (left <= 0) {
      return penguin();
    }
    // Hobbies of up to 2,000 characters; each costs its length plus 3 bytes of tag and length.
    List<String> hobbies = new ArrayList<>();
    int n = 0;
    while (left > 4) {
      int len = Math.min(2000, left - 3);
      hobbies.add(fill(n++, len));
      left -= len + (len < 128 ? 2 : 3);
    }
    return person.addAllHobbies(hobbies).build();
  }

  private static String fill(int n, int len) {
    StringBuilder s = new StringBuilder(len);
    String word = "hobby-" + n + "-";
    while (s.length() < len) {
      s.append(word);
    }
    s.setLength(len);
    return s.toString();
  }

  static RegisterPersonRequest request(Person person) {
    return RegisterPersonRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setPerson(person).build();
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** The person as the REST twin takes it: the proto3 JSON mapping's field names, compact. */
  static String json(Person person) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("name", person.getName());
    fields.put("age", person.getAge());
    if (person.getHobbiesCount() > 0) {
      fields.put("hobbies", person.getHobbiesList());
    }
    if (person.hasAddress()) {
      fields.put("address", Map.of("city", person.getAddress().getCity(), "zipCode", person.getAddress().getZipCode()));
    }
    return JSON.writeValueAsString(fields);
  }
}
