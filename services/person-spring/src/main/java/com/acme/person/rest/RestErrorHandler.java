package com.acme.person.rest;

import build.buf.validate.Violations;
import com.acme.person.error.ErrorMapper;
import com.acme.person.validation.FieldPaths;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.Code;
import com.google.rpc.Status;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/** Errors of the REST twin as JSON, with the HTTP status of ErrorMapper's code. */
@RestControllerAdvice
public class RestErrorHandler {

  private final ErrorMapper errors;
  private final RestBodyFilter body;

  public RestErrorHandler(ErrorMapper errors, RestBodyFilter body) {
    this.errors = errors;
    this.body = body;
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<RestError> unreadable(HttpMessageNotReadableException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof RestBodyFilter.BodyTooLargeException) {
        return error(413, Code.RESOURCE_EXHAUSTED, body.tooLarge());
      }
    }
    // Where in the body, never Jackson's own message: it names classes of this service.
    String at = jsonPath(e);
    return error(400, Code.INVALID_ARGUMENT,
        "the body is not a valid person in JSON" + (at.isEmpty() ? "" : " (at " + at + ")"));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<RestError> any(Exception e) {
    if (e instanceof ErrorResponse mvc) {
      // Spring MVC's own errors (unknown route, wrong method, …) keep their HTTP status.
      int http = mvc.getStatusCode().value();
      String detail = mvc.getBody().getDetail();
      return ResponseEntity.status(http)
          .headers(mvc.getHeaders())
          .body(new RestError(RestErrors.codeOf(http).name(), detail == null ? "" : detail, List.of()));
    }
    Status status = errors.toStatus(e);
    Code code = Code.forNumber(status.getCode());
    return ResponseEntity.status(ErrorMapper.httpStatus(status.getCode()))
        .body(new RestError(code == null ? Code.UNKNOWN.name() : code.name(), status.getMessage(), violations(status)));
  }

  private static ResponseEntity<RestError> error(int http, Code code, String message) {
    return ResponseEntity.status(http).body(new RestError(code.name(), message, List.of()));
  }

  /** "address.city" or "hobbies[2]" for the value Jackson could not read, or "". */
  private static String jsonPath(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference ref : jackson.getPath()) {
          if (ref.getPropertyName() != null) {
            path.append(path.isEmpty() ? "" : ".").append(ref.getPropertyName());
          } else if (ref.getIndex() >= 0) {
            path.append('[').append(ref.getIndex()).append(']');
          }
        }
        return path.toString();
      }
    }
    return "";
  }

  private static List<RestError.Violation> violations(Status status) {
    List<RestError.Violation> out = new ArrayList<>();
    for (Any detail : status.getDetailsList()) {
      if (detail.is(Violations.class)) {
        try {
          for (var v : detail.unpack(Violations.class).getViolationsList()) {
            out.add(new RestError.Violation(FieldPaths.toText(v.getField()), v.getRuleId(), v.getMessage()));
          }
        } catch (InvalidProtocolBufferException impossible) {
          throw new IllegalStateException(impossible);
        }
      }
    }
    return out;
  }
}
