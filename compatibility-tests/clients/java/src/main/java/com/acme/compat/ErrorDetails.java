package com.acme.compat;

import build.buf.validate.FieldPathElement;
import build.buf.validate.Violation;
import build.buf.validate.Violations;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.RetryInfo;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Reads the error details servers put in grpc-status-details-bin with the real types:
 * google.rpc.Status (grpc-protobuf's StatusProto), buf.validate.Violations (the protovalidate
 * runtime) and google.rpc.RetryInfo. Violations are named "path/rule_id" as the README does.
 */
final class ErrorDetails {
  private ErrorDetails() {}

  static com.google.rpc.Status status(StatusRuntimeException e) {
    com.google.rpc.Status status = StatusProto.fromThrowable(e);
    Checks.that(status != null, "no google.rpc.Status in grpc-status-details-bin: " + Checks.describe(e));
    Checks.equal(e.getStatus().getCode().value(), status.getCode(), "google.rpc.Status code");
    return status;
  }

  /** The "path/rule_id" names of the one Violations detail the README promises. */
  static List<String> violations(StatusRuntimeException e) throws InvalidProtocolBufferException {
    List<Any> found = status(e).getDetailsList().stream().filter(a -> a.is(Violations.class)).toList();
    Checks.equal(1, found.size(), "number of buf.validate.Violations details");
    return names(found.get(0).unpack(Violations.class).getViolationsList());
  }

  static List<String> names(List<Violation> violations) {
    return violations.stream().map(ErrorDetails::name).toList();
  }

  static String name(Violation v) {
    String path =
        v.getField().getElementsList().stream()
            .map(FieldPathElement::getFieldName)
            .collect(Collectors.joining("."));
    return path + "/" + v.getRuleId();
  }

  /** Fails unless every wanted "path/rule_id" is among the call's violations. */
  static void expectViolations(StatusRuntimeException e, String what, String... wanted)
      throws InvalidProtocolBufferException {
    List<String> got = violations(e);
    for (String w : wanted) {
      Checks.that(got.contains(w), what + ": no violation " + w + " among " + got);
    }
  }

  /** Fails unless a violation has this rule id (message-level CEL rules have no field path). */
  static void expectRule(StatusRuntimeException e, String what, String ruleId)
      throws InvalidProtocolBufferException {
    List<String> got = violations(e);
    Checks.that(
        got.stream().anyMatch(n -> n.endsWith("/" + ruleId)),
        what + ": no violation with rule id " + ruleId + " among " + got);
  }

  static RetryInfo retryInfo(StatusRuntimeException e) throws InvalidProtocolBufferException {
    for (Any detail : status(e).getDetailsList()) {
      if (detail.is(RetryInfo.class)) {
        return detail.unpack(RetryInfo.class);
      }
    }
    throw new CheckFailed("no google.rpc.RetryInfo detail: " + Checks.describe(e));
  }
}
