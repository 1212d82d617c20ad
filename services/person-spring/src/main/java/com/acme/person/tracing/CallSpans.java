package com.acme.person.tracing;

import io.grpc.Context;
import io.grpc.Metadata;
import io.grpc.Status;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * The spans a call makes inside its server span, and the client span of its call to the auth
 * service.
 *
 * <p>A gRPC call's server span is Spring gRPC's observation's (named by its RPC, the child of
 * the caller's traceparent, its status in grpc.status_code); a REST call's is Spring MVC's. The
 * call boundary runs a call's events on executors of its own, where the observation's
 * thread-local scope does not follow, so the call's span travels in its gRPC Context instead
 * ({@link #SPAN}), as the authenticated caller does.
 */
@Component
public class CallSpans {

  /** The server span of the call running now. */
  public static final Context.Key<Span> SPAN = Context.key("acme.span");

  /** The call phases (Phases) that become spans: the work, not the waits or the total. */
  private static final Set<String> TRACED_PHASES = Set.of("decode", "validate", "map", "store", "encode");

  private final Tracer tracer;
  private final Propagator propagator;

  public CallSpans(Tracer tracer, Propagator propagator) {
    this.tracer = tracer;
    this.propagator = propagator;
  }

  /** The span of the thread's current scope (the server span, while a call starts). */
  public Span currentSpan() {
    return tracer.currentSpan();
  }

  /** The call's span: its gRPC Context's, else the current scope's (REST); null if none. */
  public Span callSpan() {
    Span span = SPAN.get();
    return span != null ? span : tracer.currentSpan();
  }

  /** A finished span for a phase of the call, from startNanos to endNanos (System.nanoTime()). */
  public void phase(String phase, long startNanos, long endNanos) {
    if (!TRACED_PHASES.contains(phase)) {
      return;
    }
    Span parent = callSpan();
    if (parent == null || parent.isNoop()) {
      return;
    }
    long endMicros = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()) - (System.nanoTime() - endNanos) / 1000;
    long startMicros = endMicros - (endNanos - startNanos) / 1000;
    tracer.spanBuilder()
        .setParent(parent.context())
        .name(phase)
        .startTimestamp(startMicros, TimeUnit.MICROSECONDS)
        .start()
        .end(endMicros, TimeUnit.MICROSECONDS);
  }

  /**
   * A CLIENT span for an outgoing call named fullMethodName, the child of the call's span (a new
   * trace when there is none), and its traceparent put into headers.
   */
  public Span startClient(String fullMethodName, Metadata headers) {
    Span parent = callSpan();
    Span.Builder builder = tracer.spanBuilder().name(fullMethodName).kind(Span.Kind.CLIENT);
    if (parent != null) {
      builder.setParent(parent.context());
    }
    Span span = builder.start();
    int slash = fullMethodName.lastIndexOf('/');
    span.tag("rpc.system", "grpc")
        .tag("rpc.service", fullMethodName.substring(0, slash))
        .tag("rpc.method", fullMethodName.substring(slash + 1));
    propagator.inject(span.context(), headers,
        (carrier, key, value) -> carrier.put(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER), value));
    return span;
  }

  /** Ends a client span with the status its call ended with. */
  public static void endClient(Span span, Status status) {
    span.tag("grpc.status_code", status.getCode().name());
    span.tag("rpc.grpc.status_code", String.valueOf(status.getCode().value()));
    if (!status.isOk()) {
      span.tag("error", status.getCode().name());
    }
    span.end();
  }
}
