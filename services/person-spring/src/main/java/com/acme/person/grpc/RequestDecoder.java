package com.acme.person.grpc;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import com.google.protobuf.Message;

/**
 * Decodes one method's request messages with its generated marshaller, and says what was wrong
 * in the contract's terms: a message that is not a valid request is INVALID_ARGUMENT without the
 * parser's details; one that inflates past the size limit is RESOURCE_EXHAUSTED.
 */
final class RequestDecoder<Q> {

  private final MethodDescriptor.Marshaller<Q> marshaller;
  private final String typeName;
  private final long maxMessageBytes;

  RequestDecoder(MethodDescriptor.Marshaller<Q> marshaller, long maxMessageBytes) {
    this.marshaller = marshaller;
    this.maxMessageBytes = maxMessageBytes;
    this.typeName = marshaller instanceof MethodDescriptor.PrototypeMarshaller<?> p
            && p.getMessagePrototype() instanceof Message m
        ? m.getDescriptorForType().getFullName()
        : "request message";
  }

  /** The message in raw, which it closes; which names it in errors ("the request", …). */
  Q decode(RawRequest raw, String which) {
    try (raw) {
      return marshaller.parse(raw.open());
    } catch (Exception undecodable) {
      throw overLimit(undecodable)
          ? status(Status.RESOURCE_EXHAUSTED, which + " is larger than the limit of " + maxMessageBytes
              + " bytes after decompression")
          : status(Status.INVALID_ARGUMENT, which + " is not a valid " + typeName);
    }
  }

  /**
   * Whether reading stopped at the message size limit: the transport enforces it while a
   * compressed message is inflated, which happens as it is read.
   */
  private static boolean overLimit(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED) {
        return true;
      }
    }
    return false;
  }

  private static StatusRuntimeException status(Status status, String message) {
    return status.withDescription(message).asRuntimeException(new Metadata());
  }
}
