package com.acme.person.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard every interceptor and worker closes calls through. Found by the fuzz suite (its
 * regression case person-spring-*.json replays it against the real server): when the transport
 * ended a call itself while the service still worked on it, the service's own status was a
 * second set of headers on a finished stream, and Netty closed the whole connection.
 */
class ClosingOnceServerCallTest {

  @Test
  void closesOnceAndSendsNothingAfter() {
    Recorder call = new Recorder();
    ClosingOnceServerCall<Object, Object> guarded = new ClosingOnceServerCall<>(call);
    guarded.close(Status.INVALID_ARGUMENT, new Metadata());
    guarded.close(Status.INTERNAL, new Metadata());
    guarded.sendMessage("late");
    assertThat(call.events).containsExactly("close INVALID_ARGUMENT");
    assertThat(guarded.isClosed()).isTrue();
  }

  @Test
  void sendsNothingOnceTheCallsContextIsCancelled() throws Exception {
    Recorder call = new Recorder();
    Context.CancellableContext context = Context.current().withCancellation();
    ClosingOnceServerCall<Object, Object> guarded = context.call(() -> new ClosingOnceServerCall<>(call));
    context.cancel(Status.RESOURCE_EXHAUSTED.asRuntimeException());
    guarded.sendHeaders(new Metadata());
    guarded.close(Status.UNAVAILABLE, new Metadata());
    assertThat(call.events).isEmpty();
    assertThat(guarded.isClosed()).isTrue();
  }

  /** A ServerCall that records what it was asked to send. */
  private static final class Recorder extends ServerCall<Object, Object> {
    final List<String> events = new ArrayList<>();

    @Override public void request(int numMessages) {}
    @Override public void sendHeaders(Metadata headers) { events.add("headers"); }
    @Override public void sendMessage(Object message) { events.add("message"); }
    @Override public void close(Status status, Metadata trailers) { events.add("close " + status.getCode()); }
    @Override public boolean isCancelled() { return false; }
    @Override public Attributes getAttributes() { return Attributes.EMPTY; }
    @Override public MethodDescriptor<Object, Object> getMethodDescriptor() { return null; }
  }
}
