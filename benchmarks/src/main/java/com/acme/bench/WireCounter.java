package com.acme.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A TCP proxy that counts the request header bytes clients send through it, read off the
 * bytes themselves: for HTTP/1.1 each request's line and header block (up to the blank line,
 * inclusive); for HTTP/2 (gRPC, Connect over h2) each HEADERS frame with its CONTINUATION
 * frames, frame headers included, as HPACK left them. Nothing is computed from what a client
 * says it sent.
 */
final class WireCounter implements AutoCloseable {
  private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket server;
  private final String host;
  private final int port;
  /** Header bytes of each request, in the order they crossed. */
  private final List<Integer> headers = new ArrayList<>();
  private long total;

  WireCounter(String target) throws IOException {
    int colon = target.lastIndexOf(':');
    host = target.substring(0, colon);
    port = Integer.parseInt(target.substring(colon + 1));
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(this::accept, "wire-counter");
    accept.setDaemon(true);
    accept.start();
  }

  /** host:port to give clients instead of the target. */
  String target() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  synchronized List<Integer> headerBytes() {
    return List.copyOf(headers);
  }

  /** Every byte clients sent, bodies included. */
  synchronized long totalBytes() {
    return total;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(new InetSocketAddress(host, port));
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        pump(upstream.getInputStream(), client.getOutputStream(), null, client, upstream);
        pump(client.getInputStream(), upstream.getOutputStream(), new Parser(), client, upstream);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(InputStream in, OutputStream out, Parser parser, Socket a, Socket b) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[64 << 10];
      try {
        int n;
        while ((n = in.read(buf)) > 0) {
          if (parser != null) {
            parser.feed(buf, n);
          }
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one side went away
      } finally {
        try {
          a.close();
          b.close();
        } catch (IOException ignored) {
        }
      }
    }, "wire-counter-pump");
    t.setDaemon(true);
    t.start();
  }

  /** Reads one connection's client-to-server bytes, one at a time (the volumes here are small). */
  private final class Parser {
    private int seen;
    private boolean h2;
    // HTTP/1.1: the head being read, then a body to skip.
    private final StringBuilder head = new StringBuilder();
    private long bodyLeft;
    // HTTP/2: the frame header being read, then the payload to skip.
    private final byte[] frame = new byte[9];
    private int frameRead;
    private long payloadLeft;

    void feed(byte[] buf, int n) {
      synchronized (WireCounter.this) {
        total += n;
      }
      for (int i = 0; i < n; i++) {
        byte b = buf[i];
        if (seen < PREFACE.length) {
          if (seen == 0) {
            h2 = b == PREFACE[0];
          }
          if (h2) {
            seen++;
            continue;
          }
          seen = Integer.MAX_VALUE;
        }
        if (h2) {
          h2(b);
        } else {
          h1(b);
        }
      }
    }

    private void h1(byte b) {
      if (bodyLeft > 0) {
        bodyLeft--;
        return;
      }
      head.append((char) (b & 0xff));
      int len = head.length();
      if (len >= 4 && head.charAt(len - 1) == '\n' && head.charAt(len - 2) == '\r' && head.charAt(len - 3) == '\n' && head.charAt(len - 4) == '\r') {
        record(len);
        for (String line : head.toString().split("\r\n")) {
          if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
            bodyLeft = Long.parseLong(line.substring(15).trim());
          }
        }
        head.setLength(0);
      }
    }

    private void h2(byte b) {
      if (payloadLeft > 0) {
        payloadLeft--;
        return;
      }
      frame[frameRead++] = b;
      if (frameRead < 9) {
        return;
      }
      frameRead = 0;
      int length = ((frame[0] & 0xff) << 16) | ((frame[1] & 0xff) << 8) | (frame[2] & 0xff);
      int type = frame[3] & 0xff;
      payloadLeft = length;
      if (type == 0x1) { // HEADERS: a new request's header block (or a client's trailers)
        record(9 + length);
      } else if (type == 0x9) { // CONTINUATION: more of the same block
        synchronized (WireCounter.this) {
          headers.set(headers.size() - 1, headers.get(headers.size() - 1) + 9 + length);
        }
      }
    }

    private void record(int bytes) {
      synchronized (WireCounter.this) {
        headers.add(bytes);
      }
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
