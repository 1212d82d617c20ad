package com.acme.person;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** REST requests as a client that is slow, silent or lying about its body sends them: bytes on a socket. */
final class RawRest {
  private RawRest() {}

  /**
   * A registration that announces contentLength bytes of body and has sent only bodyStart of it;
   * its reads wait at most 10 s.
   */
  static Socket registrationStarted(int port, String token, long contentLength, String bodyStart) throws IOException {
    Socket socket = new Socket("localhost", port);
    socket.setSoTimeout(10_000);
    OutputStream out = socket.getOutputStream();
    out.write(("POST /api/people HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Authorization: Bearer " + token + "\r\nContent-Length: " + contentLength + "\r\n\r\n" + bodyStart)
        .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }
}
