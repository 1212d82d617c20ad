package com.acme.person.grpc;

import com.google.protobuf.MessageLite;
import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * An answer encoded before it reaches the transport's thread, by whichever thread produced it:
 * the transport then only copies its bytes. The response marshaller of every method the
 * service serves takes either an answer message or one of these.
 */
final class EncodedAnswer extends ByteArrayInputStream implements KnownLength, Drainable {

  private EncodedAnswer(byte[] bytes) {
    super(bytes);
  }

  static EncodedAnswer of(MessageLite message) {
    return new EncodedAnswer(message.toByteArray());
  }

  int size() {
    return buf.length;
  }

  @Override
  public int drainTo(OutputStream target) throws IOException {
    int n = available();
    target.write(buf, pos, n);
    pos = count;
    return n;
  }

  /** original, taking EncodedAnswers as they are. */
  @SuppressWarnings("unchecked")
  static MethodDescriptor.Marshaller<Object> marshaller(MethodDescriptor.Marshaller<?> original) {
    MethodDescriptor.Marshaller<Object> answers = (MethodDescriptor.Marshaller<Object>) original;
    return new MethodDescriptor.Marshaller<>() {
      @Override
      public InputStream stream(Object value) {
        return value instanceof EncodedAnswer encoded ? encoded : answers.stream(value);
      }

      @Override
      public Object parse(InputStream stream) {
        return answers.parse(stream);
      }
    };
  }
}
