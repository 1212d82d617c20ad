package com.acme.person.rest;

import com.google.rpc.Code;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * The REST twin's error bodies, for the places that answer before Spring MVC does (filters):
 * the same RestError JSON the controller advice writes.
 */
@Component
public class RestErrors {

  private final JsonMapper json;

  public RestErrors(JsonMapper json) {
    this.json = json;
  }

  public void write(HttpServletResponse response, int httpStatus, Code code, String message) throws IOException {
    response.setStatus(httpStatus);
    response.setContentType(MediaType.APPLICATION_JSON_VALUE);
    // The request body was not read; the connection cannot be reused for another request.
    response.setHeader("Connection", "close");
    json.writeValue(response.getOutputStream(), RestError.of(code, message));
  }

  /** The gRPC code of an HTTP error that Spring MVC or a filter answers on its own. */
  public static Code codeOf(int httpStatus) {
    return switch (httpStatus) {
      case 401 -> Code.UNAUTHENTICATED;
      case 403 -> Code.PERMISSION_DENIED;
      case 404 -> Code.NOT_FOUND;
      // A method, media type or representation the twin does not offer.
      case 405, 406, 415 -> Code.UNIMPLEMENTED;
      case 413, 429, 431 -> Code.RESOURCE_EXHAUSTED;
      default -> httpStatus < 500 ? Code.INVALID_ARGUMENT : Code.INTERNAL;
    };
  }
}
