package com.acme.person.tracing;

import brave.sampler.Sampler;
import io.grpc.Status;
import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.binder.grpc.GrpcServerObservationContext;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import zipkin2.reporter.ReporterMetrics;
import zipkin2.reporter.brave.AsyncZipkinSpanHandler;
import zipkin2.reporter.urlconnection.URLConnectionSender;

/**
 * Where spans go: to the Zipkin at person.tracing.zipkin-endpoint (TRACING_ZIPKIN_ENDPOINT), or
 * nowhere when it is unset — then no new trace is sampled, and a caller's traceparent is still
 * passed on to the auth service, so a trace its caller records continues through.
 *
 * <p>A Zipkin that is down or slow never slows or fails a call: a finished span only joins
 * zipkin-reporter's bounded queue ({@link #QUEUED_MAX_SPANS}), which one thread of its own sends
 * from, with timeouts; a span that finds the queue full, and every span of a message that could
 * not be sent, is dropped and counted in person_trace_spans_dropped_total.
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfig {

  /** Spans waiting to be sent, at most; more are dropped. */
  static final int QUEUED_MAX_SPANS = 2048;
  /** A finished span waits at most this long before it is sent. */
  static final int MESSAGE_TIMEOUT_MS = 1000;
  /** Connecting to Zipkin, and then its answer, at most; past either the message is dropped. */
  static final int CONNECT_TIMEOUT_MS = 1000;
  static final int READ_TIMEOUT_MS = 5000;

  static final String DROPPED = "person.trace.spans.dropped";

  /**
   * A gRPC server span's status as auth-node's spans carry it: the code's number in
   * rpc.grpc.status_code, and the error tag when it is not OK (the observation sets grpc.status_code,
   * and error only for an exception, which a refused call's status has none of). High
   * cardinality: spans only, the grpc.server metrics keep their labels.
   */
  @Bean
  ObservationFilter grpcServerStatusTags() {
    return context -> {
      if (context instanceof GrpcServerObservationContext grpc && grpc.getStatusCode() != null) {
        Status.Code code = grpc.getStatusCode();
        context.addHighCardinalityKeyValue(KeyValue.of("rpc.grpc.status_code", String.valueOf(code.value())));
        if (code != Status.Code.OK) {
          context.addHighCardinalityKeyValue(KeyValue.of("error", code.name()));
        }
      }
      return context;
    };
  }

  /** Every new trace when spans go somewhere; none otherwise. */
  @Bean
  Sampler tracingSampler(@Value("${person.tracing.zipkin-endpoint:}") String endpoint) {
    return endpoint.isBlank() ? Sampler.NEVER_SAMPLE : Sampler.ALWAYS_SAMPLE;
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnExpression("!'${person.tracing.zipkin-endpoint:}'.isBlank()")
  AsyncZipkinSpanHandler zipkinSpanHandler(@Value("${person.tracing.zipkin-endpoint}") String endpoint, MeterRegistry registry) {
    URLConnectionSender sender = URLConnectionSender.newBuilder()
        .endpoint(endpoint)
        .connectTimeout(CONNECT_TIMEOUT_MS)
        .readTimeout(READ_TIMEOUT_MS)
        .build();
    return AsyncZipkinSpanHandler.newBuilder(sender)
        .queuedMaxSpans(QUEUED_MAX_SPANS)
        .messageTimeout(MESSAGE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        // On shutdown, what is queued gets one more try, this long at most.
        .closeTimeout(READ_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .metrics(new DroppedSpans(registry))
        .build();
  }

  /** The one number of zipkin-reporter's that an operator needs: spans that never left. */
  static final class DroppedSpans implements ReporterMetrics {
    private final Counter dropped;

    DroppedSpans(MeterRegistry registry) {
      this.dropped = Counter.builder(DROPPED)
          .description("Trace spans never sent to Zipkin: the bounded queue was full, or Zipkin refused, was down or too slow.")
          .register(registry);
    }

    @Override
    public void incrementSpansDropped(int quantity) {
      dropped.increment(quantity);
    }

    @Override
    public void incrementMessages() {}

    @Override
    public void incrementMessagesDropped(Throwable cause) {}

    @Override
    public void incrementSpans(int quantity) {}

    @Override
    public void incrementSpanBytes(int quantity) {}

    @Override
    public void incrementMessageBytes(int quantity) {}

    @Override
    public void updateQueuedSpans(int update) {}

    @Override
    public void updateQueuedBytes(int update) {}
  }
}
