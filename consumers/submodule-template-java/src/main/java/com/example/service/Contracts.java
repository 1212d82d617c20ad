package com.example.service;

import build.buf.protovalidate.Validator;
import build.buf.protovalidate.ValidatorFactory;
import build.buf.protovalidate.exceptions.ValidationException;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.example.service.contracts.ContractsVersion;
import io.grpc.MethodDescriptor;
import java.util.List;

/**
 * Where this service meets the generated contracts. It starts as a small example (a validated
 * Person, the service's methods and the contract version) that proves the generated code
 * compiles against its runtimes; grow your service from here or replace it.
 */
public final class Contracts {
  private static final Validator VALIDATOR = ValidatorFactory.newBuilder().build();

  private Contracts() {}

  /** Which contracts this service was built against, for logs and health checks. */
  public static String build() {
    return "acme contracts " + ContractsVersion.VERSION + " (" + ContractsVersion.COMMIT.substring(0, 12) + ")";
  }

  /** The RPCs of the person service, as the contracts define them. */
  public static List<String> personServiceMethods() {
    return PersonServiceGrpc.getServiceDescriptor().getMethods().stream()
        .map(MethodDescriptor::getBareMethodName)
        .toList();
  }

  /** Whether a person with this name and age passes the contracts' rules. */
  public static boolean validPerson(String name, int age) throws ValidationException {
    return VALIDATOR.validate(Person.newBuilder().setName(name).setAge(age).build()).isSuccess();
  }
}
