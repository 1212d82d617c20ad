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

/** Errors of the REST twin as JSON, with the HTTP status of ErrorMapper's code. */
@RestControllerAdvice
public class RestErrorHandler {

  private final ErrorMapper errors;

  public RestErrorHandler(ErrorMapper errors) {
    this.errors = errors;
  }

  @ExceptionHandler(HttpMessageNotReadableException.class)
  ResponseEntity<RestError> unreadable(HttpMessageNotReadableException e) {
    return ResponseEntity.status(400)
        .body(new RestError(Code.INVALID_ARGUMENT.name(), "the body is not a valid person in JSON", List.of()));
  }

  @ExceptionHandler(Exception.class)
  ResponseEntity<RestError> any(Exception e) {
    if (e instanceof ErrorResponse mvc) {
      // Spring MVC's own errors (unknown route, wrong method, …) keep their HTTP status.
      int http = mvc.getStatusCode().value();
      String detail = mvc.getBody().getDetail();
      Code code = http == 404 ? Code.NOT_FOUND : Code.INVALID_ARGUMENT;
      return ResponseEntity.status(http)
          .body(new RestError(code.name(), detail == null ? "" : detail, List.of()));
    }
    Status status = errors.toStatus(e);
    Code code = Code.forNumber(status.getCode());
    return ResponseEntity.status(ErrorMapper.httpStatus(status.getCode()))
        .body(new RestError(code == null ? Code.UNKNOWN.name() : code.name(), status.getMessage(), violations(status)));
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
