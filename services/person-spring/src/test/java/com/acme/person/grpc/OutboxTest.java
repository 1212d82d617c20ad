package com.acme.person.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.metrics.Phases;
import com.acme.person.tracing.CallSpans;
import io.grpc.Attributes;
import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The only writer of a call's answer: headers once before the first message, the status once,
 * nothing after it, and nothing once the transport ended the call (its context is cancelled) —
 * a second status on a finished stream made Netty close the whole connection. (The fuzz suite
 * replays the case that found it against the real server: fuzz/regressions/.)
 */
class OutboxTest {

  private final Phases phases = new Phases(new SimpleMeterRegistry(), new CallSpans(Tracer.NOOP, Propagator.NOOP));

  @Test
  void sendsHeadersOnceThenMessagesThenOneStatusAndNothingAfter() {
    Recorder call = new Recorder();
    Outbox out = new Outbox(call, phases, "Test", System.nanoTime());
    out.send("first");
    out.send("second");
    out.close(Status.INVALID_ARGUMENT, new Metadata());
    out.close(Status.INTERNAL, new Metadata());
    out.send("late");
    assertThat(call.events).containsExactly("headers", "message first", "message second", "close INVALID_ARGUMENT");
    assertThat(out.isClosed()).isTrue();
    assertThat(out.isReady()).isFalse();
  }

  @Test
  void writesNothingOnceTheCallsContextIsCancelled() throws Exception {
    Recorder call = new Recorder();
    Context.CancellableContext context = Context.current().withCancellation();
    Outbox out = context.call(() -> new Outbox(call, phases, "Test", System.nanoTime()));
    context.cancel(Status.RESOURCE_EXHAUSTED.asRuntimeException());
    out.send("after the transport ended it");
    out.close(Status.UNAVAILABLE, new Metadata());
    assertThat(call.events).isEmpty();
  }

  /** A ServerCall that records what it was asked to send. */
  private static final class Recorder extends ServerCall<Object, Object> {
    final List<String> events = new ArrayList<>();

    @Override public void request(int numMessages) {}
    @Override public void sendHeaders(Metadata headers) { events.add("headers"); }
    @Override public void sendMessage(Object message) { events.add("message " + message); }
    @Override public void close(Status status, Metadata trailers) { events.add("close " + status.getCode()); }
    @Override public boolean isCancelled() { return false; }
    @Override public boolean isReady() { return true; }
    @Override public Attributes getAttributes() { return Attributes.EMPTY; }
    @Override public MethodDescriptor<Object, Object> getMethodDescriptor() { return null; }
  }
}
