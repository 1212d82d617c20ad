package com.acme.person.grpc;

import com.google.protobuf.Message;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A service whose request messages reach the interceptors as the bytes that came, and are
 * decoded by DecodingInterceptor. grpc-java decodes before any interceptor runs and reports a
 * message it cannot decode as UNKNOWN "Application error processing RPC" — and then tells the
 * handler the call completed, not that it was cancelled, so a stream's worker would wait for
 * ever or commit what came before. Decoding inside the interceptor chain lets the service
 * answer INVALID_ARGUMENT and cancel the handler like any other refused message.
 */
final class UndecodedRequests {
  private UndecodedRequests() {}

  /** service, with every method's request marshaller replaced by a Decoder. */
  static ServerServiceDefinition of(ServerServiceDefinition service) {
    ServiceDescriptor original = service.getServiceDescriptor();
    // The schema descriptor stays, so reflection still serves the service's files.
    ServiceDescriptor.Builder descriptor =
        ServiceDescriptor.newBuilder(original.getName()).setSchemaDescriptor(original.getSchemaDescriptor());
    List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
    for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
      ServerMethodDefinition<?, ?> undecoded = undecoded(method);
      descriptor.addMethod(undecoded.getMethodDescriptor());
      methods.add(undecoded);
    }
    ServerServiceDefinition.Builder builder = ServerServiceDefinition.builder(descriptor.build());
    methods.forEach(builder::addMethod);
    return builder.build();
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ServerMethodDefinition<?, ?> undecoded(ServerMethodDefinition method) {
    MethodDescriptor descriptor = method.getMethodDescriptor();
    MethodDescriptor raw =
        descriptor.toBuilder(new Decoder(descriptor.getRequestMarshaller()), descriptor.getResponseMarshaller()).build();
    // Generics are erased: the handler receives what DecodingInterceptor decoded.
    return ServerMethodDefinition.create(raw, method.getServerCallHandler());
  }

  /**
   * The request marshaller of an undecoded method: parse hands the stream over untouched (the
   * transport closes it once the interceptors' onMessage returns, so it is decoded there).
   */
  static final class Decoder implements MethodDescriptor.Marshaller<Object> {

    private final MethodDescriptor.Marshaller<Object> original;
    private final String typeName;

    @SuppressWarnings("unchecked")
    private Decoder(MethodDescriptor.Marshaller<?> original) {
      this.original = (MethodDescriptor.Marshaller<Object>) original;
      this.typeName = original instanceof MethodDescriptor.PrototypeMarshaller<?> p
              && p.getMessagePrototype() instanceof Message m
          ? m.getDescriptorForType().getFullName()
          : "request message";
    }

    /** The request type's full name, for error messages. */
    String typeName() {
      return typeName;
    }

    /** Decodes with the method's own marshaller; throws when the bytes are not a message. */
    Object decode(InputStream bytes) {
      return original.parse(bytes);
    }

    @Override
    public Object parse(InputStream stream) {
      return stream;
    }

    @Override
    public InputStream stream(Object value) {
      // Only a client calls this; a client of this descriptor sends messages or raw streams.
      return value instanceof InputStream stream ? stream : original.stream(value);
    }
  }
}
