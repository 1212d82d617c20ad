package com.acme.person.grpc;

import io.grpc.Metadata;

/**
 * The size of a call's metadata as HTTP/2 counts a header list (SETTINGS_MAX_HEADER_LIST_SIZE):
 * every entry's name and value plus 32 bytes; binary values as their base64 on the wire.
 */
final class HeaderSize {
  private HeaderSize() {}

  static long of(Metadata headers) {
    long total = 0;
    for (String name : headers.keys()) {
      if (name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
        for (byte[] value : headers.getAll(Metadata.Key.of(name, Metadata.BINARY_BYTE_MARSHALLER))) {
          total += name.length() + (value.length + 2) / 3 * 4L + 32;
        }
      } else {
        for (String value : headers.getAll(Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER))) {
          total += name.length() + value.length() + 32L;
        }
      }
    }
    return total;
  }
}
