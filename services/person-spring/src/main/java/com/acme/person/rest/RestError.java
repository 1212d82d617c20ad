package com.acme.person.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.google.protobuf.Any;
import com.google.rpc.Code;
import com.google.rpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * The REST twin's error body, in the shape both services' twins answer with
 * (docs/rest-errors.md): the Connect protocol's JSON error — the status code's name in lower
 * case, a message, and each detail as Connect sends it (its type, its protobuf bytes in base64,
 * its JSON form as debug) — so a Connect client library reads it, details included. An empty
 * message or no details are left out, as Connect leaves them out.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record RestError(String code, String message, List<Detail> details) {

  /**
   * One detail: for INVALID_ARGUMENT, the buf.validate.Violations that gRPC clients get too. Its
   * JSON form (debug) is there for the types this service knows how to print.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Detail(String type, String value, JsonNode debug) {}

  public static RestError of(Code code, String message) {
    return new RestError(name(code), message, List.of());
  }

  /** The error of a google.rpc.Status, its details carried over. */
  public static RestError of(Status status) {
    Code code = Code.forNumber(status.getCode());
    List<Detail> details = new ArrayList<>();
    for (Any detail : status.getDetailsList()) {
      details.add(RestErrorDetails.of(detail));
    }
    return new RestError(name(code == null ? Code.UNKNOWN : code), status.getMessage(), details);
  }

  /** Connect's name of a code: gRPC's, in lower case ("canceled" has one l in Connect). */
  public static String name(Code code) {
    return code == Code.CANCELLED ? "canceled" : code.name().toLowerCase(Locale.ROOT);
  }
}
