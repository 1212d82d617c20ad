package com.acme.person.rest;

import com.google.rpc.Code;
import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;

/**
 * The error body of requests Tomcat refuses itself, before any servlet runs — a header with a
 * control character, a malformed request line, headers over the limit (431 rather than Tomcat's
 * 400): the REST twin's JSON error instead of Tomcat's HTML page (which also names the server). Installed as the host's error report valve by
 * RestConfig.
 */
public class JsonErrorReportValve extends ErrorReportValve {

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    int status = response.getStatus();
    if (status < 400 || response.getContentWritten() > 0) {
      return;
    }
    AtomicBoolean ioAllowed = new AtomicBoolean(true);
    response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
    if (!ioAllowed.get() || !response.setErrorReported()) {
      return;
    }
    String message = status == 400 ? "the request is not valid HTTP/1.1" : "the request was refused (HTTP " + status + ")";
    if (status == 400 && headersTooLarge(throwable)) {
      // Tomcat answers 400 for headers over max-http-request-header-size; 431 says what it is.
      status = 431;
      response.setStatus(status);
      message = "the request headers are larger than the limit";
    }
    Code code = RestErrors.codeOf(status);
    try {
      response.setContentType("application/json");
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        // RestError's JSON, written by hand: no Jackson this early (the messages need no escaping).
        writer.write("{\"code\":\"" + RestError.name(code) + "\",\"message\":\"" + message + "\"}");
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // The client is gone, or the response was committed meanwhile: nothing to report to.
    }
  }

  private static boolean headersTooLarge(Throwable t) {
    for (Throwable cause = t; cause != null; cause = cause.getCause()) {
      if (cause instanceof IllegalArgumentException && String.valueOf(cause.getMessage()).contains("header is too large")) {
        return true;
      }
    }
    return false;
  }
}
