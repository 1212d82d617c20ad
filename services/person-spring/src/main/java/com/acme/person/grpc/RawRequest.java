package com.acme.person.grpc;

import io.grpc.Detachable;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request message as it came off the wire, not yet decoded: the service decodes it where the
 * call runs (RequestDecoder), so that a large message is decoded off the transport's thread and
 * a message that is not protobuf gets the contract's answer (INVALID_ARGUMENT), not grpc-java's
 * (UNKNOWN, and a handler told the call completed).
 *
 * <p>It owns its bytes and must be closed: they are the transport's buffers, taken over from the
 * stream grpc-java hands the marshaller and would release as soon as the marshaller returns.
 */
final class RawRequest implements AutoCloseable {

  /** The request marshaller of every method the service serves: it only takes the bytes over. */
  static final MethodDescriptor.Marshaller<RawRequest> MARSHALLER = new MethodDescriptor.Marshaller<>() {
    @Override
    public RawRequest parse(InputStream stream) {
      return RawRequest.of(stream);
    }

    @Override
    public InputStream stream(RawRequest value) {
      throw new UnsupportedOperationException("the service reads requests, it never sends them");
    }
  };

  private final InputStream bytes;
  private final int size;
  private final Exception unreadable;

  private RawRequest(InputStream bytes, int size, Exception unreadable) {
    this.bytes = bytes;
    this.size = size;
    this.unreadable = unreadable;
  }

  private static RawRequest of(InputStream stream) {
    try {
      if (stream instanceof Detachable detachable) {
        InputStream own = detachable.detach();
        return new RawRequest(own, own.available(), null);
      }
      // A compressed message: grpc-java hands it over as it inflates, with the size limit
      // enforced as it is read, so it can only be read here, whole.
      byte[] inflated = stream.readAllBytes();
      return new RawRequest(new ByteArrayInputStream(inflated), inflated.length, null);
    } catch (IOException | RuntimeException e) {
      // Too large once inflated, or not gzip: the decoder says which, where the call runs.
      return new RawRequest(InputStream.nullInputStream(), 0, e);
    }
  }

  /** Its size in bytes, as it will be decoded. */
  int size() {
    return size;
  }

  /** The bytes, once; throws what made them unreadable. */
  InputStream open() throws Exception {
    if (unreadable != null) {
      throw unreadable;
    }
    return bytes;
  }

  @Override
  public void close() {
    try {
      bytes.close();
    } catch (IOException e) {
      // Releasing memory buffers does not fail; nothing to do if it did.
    }
  }
}
