package com.acme.person.grpc;

/** How error messages name one message of a client's stream. */
final class StreamPositions {
  private StreamPositions() {}

  /** "message 3 of the stream (counting from 0)". */
  static String message(long position) {
    return "message " + position + " of the stream (counting from 0)";
  }
}
