package com.acme.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import build.buf.protovalidate.ValidationResult;
import build.buf.protovalidate.Validator;
import build.buf.protovalidate.ValidatorFactory;
import com.acme.person.v1.Person;
import com.acme.person.v1.RegisterPersonRequest;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The buf.validate rules written in the schema are linked into the Java SDK's descriptors. */
class ValidationRulesTest {

  private final Validator validator = ValidatorFactory.newBuilder().build();

  @Test
  void aValidRequestPasses() throws Exception {
    RegisterPersonRequest request = RegisterPersonRequest.newBuilder()
        .setRequestId("0f8fad5b-d9cb-469f-a165-70867728950e")
        .setPerson(Person.newBuilder().setName("Ada").setAge(36))
        .build();
    assertTrue(validator.validate(request).isSuccess());
  }

  @Test
  void violationsNameFieldPathsAndRuleIds() throws Exception {
    RegisterPersonRequest request = RegisterPersonRequest.newBuilder()
        .setRequestId("not-a-uuid")
        .setPerson(PersonRoundTripTest.samplePerson().toBuilder().setAge(151))
        .build();
    ValidationResult result = validator.validate(request);
    Set<String> found = result.getViolations().stream()
        .map(v -> v.toProto().getRuleId())
        .collect(Collectors.toSet());
    assertEquals(Set.of("string.uuid", "int32.gte_lte", "person.server_fields_unset"), found);
  }
}
