package com.acme.person.metrics;

import com.acme.person.tracing.CallSpans;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Where a gRPC call's time goes inside the service: one Micrometer timer per method and phase
 * (decode, auth, validate, map, store, encode, and the call's whole time on the server,
 * total), served at /actuator/prometheus as person_call_phase_seconds. The benchmarks read it
 * to say what share of a real request the DTO ↔ protobuf mapping is (scenario 6). The work
 * among them (decode, validate, map, store, encode) is also a span inside the call's (CallSpans).
 */
@Component
public class Phases {
  public static final String METRIC = "person.call.phase";

  private final MeterRegistry registry;
  private final CallSpans spans;
  private final Map<String, Map<String, Timer>> timers = new ConcurrentHashMap<>();

  public Phases(MeterRegistry registry, CallSpans spans) {
    this.registry = registry;
    this.spans = spans;
  }

  /**
   * Records the time since startNanos (System.nanoTime()) as method's phase, and returns the
   * time it read: the start of the phase that follows.
   */
  public long since(long startNanos, String method, String phase) {
    long now = System.nanoTime();
    timers
        .computeIfAbsent(method, m -> new ConcurrentHashMap<>())
        .computeIfAbsent(phase, p -> Timer.builder(METRIC).tag("method", method).tag("phase", phase).register(registry))
        .record(now - startNanos, TimeUnit.NANOSECONDS);
    spans.phase(phase, startNanos, now);
    return now;
  }
}
