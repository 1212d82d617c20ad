package com.acme.compat;

import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.TextFormat;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Objects;
import java.util.regex.Pattern;

/** The assertions features use; each failure says what was expected and what came. */
final class Checks {
  private static final Pattern UUID =
      Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final int MAX_SHOWN = 300;

  private Checks() {}

  /** A call that must fail, run by expectStatus. */
  @FunctionalInterface
  interface Call {
    Object run() throws Exception;
  }

  static void that(boolean condition, String detail) {
    if (!condition) {
      throw new CheckFailed(detail);
    }
  }

  static void equal(Object expected, Object actual, String what) {
    if (!Objects.equals(expected, actual)) {
      throw new CheckFailed(what + ": expected " + show(expected) + ", got " + show(actual));
    }
  }

  static void uuid(String value, String what) {
    that(UUID.matcher(value).matches(), what + " is not a UUID: " + show(value));
  }

  /** Runs call, which must end with code; returns the exception to look at its details. */
  static StatusRuntimeException expectStatus(Status.Code code, String what, Call call)
      throws Exception {
    try {
      call.run();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != code) {
        throw new CheckFailed(what + ": expected " + code + ", got " + describe(e));
      }
      return e;
    }
    throw new CheckFailed(what + ": expected " + code + ", got OK");
  }

  static String describe(StatusRuntimeException e) {
    Status s = e.getStatus();
    return s.getCode() + (s.getDescription() == null ? "" : " (" + s.getDescription() + ")");
  }

  /** Messages in one line, long values cut, so a detail stays readable. */
  static String show(Object value) {
    String text =
        value instanceof MessageOrBuilder m
            ? "{" + TextFormat.printer().emittingSingleLine(true).printToString(m) + "}"
            : String.valueOf(value);
    return text.length() <= MAX_SHOWN ? text : text.substring(0, MAX_SHOWN) + "…";
  }
}
