package com.acme.compat;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.compat.executor.v1.Outcome;
import com.acme.compat.executor.v1.Step;
import com.acme.person.v1.PersonServiceGrpc;
import com.google.protobuf.ByteString;
import com.google.protobuf.MessageLite;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServiceDescriptor;
import io.grpc.Status;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The Java executor (compatibility-tests/executor/): reads Steps on stdin, makes each call with
 * the SDK's generated method descriptors and grpc-java, writes one Outcome per Step on stdout.
 * It judges nothing; the harness does. One channel per server for the executor's life, so a
 * later step really reuses the connection of an earlier one.
 */
final class Executor implements AutoCloseable {
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> TRACEPARENT =
      Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<byte[]> STATUS_DETAILS =
      Metadata.Key.of("grpc-status-details-bin", Metadata.BINARY_BYTE_MARSHALLER);

  /** Every method of the SDK's services, by "service/method". */
  private static final Map<String, MethodDescriptor<?, ?>> METHODS = new HashMap<>();

  static {
    for (ServiceDescriptor service :
        new ServiceDescriptor[] {PersonServiceGrpc.getServiceDescriptor(), AuthServiceGrpc.getServiceDescriptor()}) {
      service.getMethods().forEach(m -> METHODS.put(m.getFullMethodName(), m));
    }
  }

  private final Map<String, ManagedChannel> channels = new HashMap<>();

  /** Runs until stdin ends. */
  void serve(InputStream stdin, OutputStream stdout) throws IOException {
    DataInputStream in = new DataInputStream(stdin);
    DataOutputStream out = new DataOutputStream(stdout);
    while (true) {
      int length;
      try {
        length = in.readInt();
      } catch (EOFException end) {
        return;
      }
      byte[] step = in.readNBytes(length);
      if (step.length != length) {
        throw new EOFException("a Step was cut short");
      }
      byte[] outcome = run(Step.parseFrom(step)).toByteArray();
      out.writeInt(outcome.length);
      out.write(outcome);
      out.flush();
    }
  }

  private Outcome run(Step step) {
    try {
      if (!step.getProtocol().equals("grpc")) {
        return Outcome.newBuilder().setFailure("grpc-java speaks grpc only, not " + step.getProtocol()).build();
      }
      MethodDescriptor<?, ?> method = METHODS.get(step.getService() + "/" + step.getMethod());
      if (method == null) {
        return Outcome.newBuilder().setFailure("the SDK has no method " + step.getService() + "/" + step.getMethod()).build();
      }
      return call(step, method);
    } catch (RuntimeException | InterruptedException e) {
      e.printStackTrace();
      return Outcome.newBuilder().setFailure("crashed: " + e).build();
    }
  }

  private <Q, R> Outcome call(Step step, MethodDescriptor<Q, R> method) throws InterruptedException {
    ManagedChannel channel = channel(step.getServer());
    Metadata headers = new Metadata();
    if (step.hasAuthorization()) {
      headers.put(AUTHORIZATION, step.getAuthorization());
    }
    if (step.hasTraceparent()) {
      headers.put(TRACEPARENT, step.getTraceparent());
    }
    CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(step.getTimeoutMs(), TimeUnit.MILLISECONDS);
    // What the server sent, in order; the call's end comes last.
    BlockingQueue<Object> received = new LinkedBlockingQueue<>();
    record End(Status status, Metadata trailers) {}

    long start = System.nanoTime();
    ClientCall<Q, R> call = channel.newCall(method, options);
    call.start(
        new ClientCall.Listener<R>() {
          @Override
          public void onMessage(R message) {
            received.add(message);
            call.request(1);
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            received.add(new End(status, trailers));
          }
        },
        headers);
    call.request(1);

    Outcome.Builder outcome = Outcome.newBuilder();
    End end = null;
    for (ByteString request : step.getRequestsList()) {
      // Decoded by the SDK's own type: the bytes on the wire are the SDK's encoding of it.
      call.sendMessage(method.parseRequest(request.newInput()));
      if (step.getExchange()) {
        Object answer = received.take();
        if (answer instanceof End e) {
          end = e;
          break;
        }
        outcome.addResponses(encode(answer));
      }
    }
    if (end == null) {
      switch (step.getEnd()) {
        case END_CANCEL -> {
          Thread.sleep(step.getCancelAfterMs());
          call.cancel("the executor cancels, as the case asks", null);
        }
        case END_OPEN -> {}
        default -> call.halfClose();
      }
      for (Object next; end == null; ) {
        next = received.take();
        if (next instanceof End e) {
          end = e;
        } else {
          outcome.addResponses(encode(next));
        }
      }
    }
    outcome.setElapsedMs((System.nanoTime() - start) / 1_000_000);
    outcome.setCode(end.status().getCode().value());
    if (end.status().getDescription() != null) {
      outcome.setMessage(end.status().getDescription());
    }
    byte[] details = end.trailers() == null ? null : end.trailers().get(STATUS_DETAILS);
    if (details != null) {
      outcome.setStatusDetails(ByteString.copyFrom(details));
    }
    return outcome.build();
  }

  private static ByteString encode(Object response) {
    return ((MessageLite) response).toByteString();
  }

  private ManagedChannel channel(String server) {
    return channels.computeIfAbsent(server, s -> {
      String variable = switch (s) {
        case "person-spring" -> "PERSON_TARGET";
        case "auth-node" -> "AUTH_TARGET";
        default -> throw new IllegalArgumentException("unknown server " + s);
      };
      String target = System.getenv(variable);
      if (target == null || target.isEmpty()) {
        throw new IllegalStateException(variable + " is not set");
      }
      return Grpc.newChannelBuilder(target, InsecureChannelCredentials.create()).build();
    });
  }

  @Override
  public void close() throws InterruptedException {
    for (ManagedChannel c : channels.values()) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
