package com.acme.person.grpc;

import com.acme.person.metrics.Phases;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * Times a PersonService call as a whole (total: from its headers to its status) and the
 * encoding of its answers (encode: grpc-java serializes a message into the transport's
 * buffers inside sendMessage, before any byte is written). The other phases are timed where
 * they happen: decode (DecodingInterceptor), auth, validate, map and store.
 */
@Component
@GlobalServerInterceptor
@Order(InterceptorOrder.PHASE_TIMING)
public class PhaseTimingInterceptor implements ServerInterceptor {

  private final Phases phases;

  public PhaseTimingInterceptor(Phases phases) {
    this.phases = phases;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    if (!PersonServiceGrpc.SERVICE_NAME.equals(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    long start = System.nanoTime();
    String method = call.getMethodDescriptor().getBareMethodName();
    return next.startCall(
        new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
          @Override
          public void sendMessage(RespT message) {
            long encode = System.nanoTime();
            super.sendMessage(message);
            phases.since(encode, method, "encode");
          }

          @Override
          public void close(Status status, Metadata trailers) {
            super.close(status, trailers);
            phases.since(start, method, "total");
          }
        },
        headers);
  }
}
