package com.acme.person.rest;

import com.google.rpc.Code;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The answer of a request Tomcat ended with an error status after a servlet had run (its error
 * dispatch): the REST twin's JSON error, as every other answer, instead of Spring Boot's
 * {timestamp, status, error, path}. Tomcat does so when a read of the body waits longer than
 * server.tomcat.connection-timeout for a byte (408): the body's time is up (RestBodyFilter).
 */
@RestController
public class RestErrorController implements ErrorController {

  private final RestBodyFilter body;

  public RestErrorController(RestBodyFilter body) {
    this.body = body;
  }

  // Where Spring Boot sends error dispatches (its own error controller maps the same).
  @RequestMapping("${spring.web.error.path:${error.path:/error}}")
  ResponseEntity<RestError> error(HttpServletRequest request) {
    int status = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer code ? code : 500;
    RestError error = status == 408
        ? RestError.of(Code.DEADLINE_EXCEEDED, body.tooSlow())
        : RestError.of(RestErrors.codeOf(status), "the request was refused (HTTP " + status + ")");
    // JSON whatever the request's Accept says: negotiating would turn a 408 into a 406.
    return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(error);
  }
}
