package com.acme.person.validation;

import build.buf.protovalidate.ValidationResult;
import build.buf.protovalidate.Validator;
import build.buf.protovalidate.ValidatorFactory;
import build.buf.protovalidate.exceptions.ValidationException;
import build.buf.validate.Violation;
import build.buf.validate.Violations;
import com.google.protobuf.Message;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/**
 * Checks messages against the buf.validate rules compiled into the SDK's descriptors, the same
 * rules every other language enforces. Used by the gRPC interceptor, SyncPeople's per-item
 * checks and the REST twin.
 */
@Component
public class RequestValidator {

  private final Validator validator = ValidatorFactory.newBuilder().build();

  /** The violations of message, or null when it is valid. */
  public Violations violations(Message message) {
    ValidationResult result;
    try {
      result = validator.validate(message);
    } catch (ValidationException e) {
      // A rule that cannot be compiled or evaluated is a defect of the schema, not of the caller.
      throw new IllegalStateException("cannot evaluate the rules of " + message.getDescriptorForType().getFullName(), e);
    }
    return result.isSuccess() ? null : result.toProto();
  }

  /** Throws InvalidRequestException naming what is wrong, prefixed by where (may be empty). */
  public void check(Message message, String where) {
    Violations violations = violations(message);
    if (violations != null) {
      throw new InvalidRequestException(describe(where, message, violations), violations);
    }
  }

  public static String describe(String where, Message message, Violations violations) {
    String prefix = where.isEmpty() ? "invalid " + message.getDescriptorForType().getName() : where;
    return prefix
        + ": "
        + violations.getViolationsList().stream()
            .map(RequestValidator::describe)
            .collect(Collectors.joining("; "));
  }

  private static String describe(Violation v) {
    String field = FieldPaths.toText(v.getField());
    return (field.isEmpty() ? "" : field + ": ") + v.getMessage() + " [" + v.getRuleId() + "]";
  }
}
