package com.acme.person;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Calls with bytes nobody generated: the real channel and transport, but the request messages
 * are whatever the test hands over, valid protobuf or not — what an outside client can send.
 */
final class RawCalls {
  private RawCalls() {}

  private static final MethodDescriptor.Marshaller<byte[]> BYTES =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };

  /** How a raw call ended: its status, trailers and the response messages it got. */
  record Outcome(Status status, Metadata trailers, List<byte[]> responses) {}

  /**
   * Sends messages on method (any call shape), half-closes unless halfClose is false, and waits
   * for the end. A null bearer sends no authorization header.
   */
  static Outcome call(
      Channel channel, MethodDescriptor<?, ?> method, String bearer, List<byte[]> messages, boolean halfClose) {
    return call(channel, method, bearer, messages, halfClose, CallOptions.DEFAULT);
  }

  /** As above, with call options (say, gzip compression of the messages). */
  static Outcome call(
      Channel channel,
      MethodDescriptor<?, ?> method,
      String bearer,
      List<byte[]> messages,
      boolean halfClose,
      CallOptions options) {
    Metadata headers = new Metadata();
    if (bearer != null) {
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + bearer);
    }
    Channel withHeaders = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(headers));
    ClientCall<byte[], byte[]> call =
        withHeaders.newCall(
            method.toBuilder(BYTES, BYTES).build(), options.withDeadlineAfter(20, TimeUnit.SECONDS));
    CompletableFuture<Outcome> done = new CompletableFuture<>();
    List<byte[]> responses = new ArrayList<>();
    call.start(
        new ClientCall.Listener<>() {
          @Override
          public void onMessage(byte[] message) {
            responses.add(message);
            call.request(1);
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            done.complete(new Outcome(status, trailers, responses));
          }
        },
        new Metadata());
    call.request(1);
    for (byte[] message : messages) {
      call.sendMessage(message);
    }
    if (halfClose) {
      call.halfClose();
    }
    try {
      return done.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      call.cancel("the test gave up waiting", e);
      throw new AssertionError("the call did not end: " + method.getFullMethodName(), e);
    }
  }
}
