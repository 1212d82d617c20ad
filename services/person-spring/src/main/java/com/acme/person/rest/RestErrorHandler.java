package com.acme.person.rest;

import com.acme.person.error.ErrorMapper;
import com.google.rpc.Code;
import com.google.rpc.Status;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import tools.jackson.core.JacksonException;

/** Errors of the REST twin as JSON (RestError), with the HTTP status of ErrorMapper's code. */
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
      if (cause instanceof RestBodyFilter.BodyTooSlowException) {
        return error(408, Code.DEADLINE_EXCEEDED, body.tooSlow());
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
          .body(RestError.of(RestErrors.codeOf(http), detail == null ? "" : detail));
    }
    Status status = errors.toStatus(e);
    return ResponseEntity.status(ErrorMapper.httpStatus(status.getCode())).body(RestError.of(status));
  }

  private static ResponseEntity<RestError> error(int http, Code code, String message) {
    return ResponseEntity.status(http).body(RestError.of(code, message));
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
}
