package com.acme.person.grpc;

import build.buf.validate.Violations;
import com.acme.person.error.ErrorMapper;
import com.acme.person.metrics.Phases;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.validation.InvalidRequestException;
import com.acme.person.validation.RequestValidator;
import com.google.protobuf.Message;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * Checks every PersonService request message, streamed ones included, against its
 * buf.validate rules. The first invalid message ends the call with INVALID_ARGUMENT and a
 * buf.validate.Violations detail, and the handler sees a cancellation (so RegisterPeople rolls
 * back). SyncPeople is exempt: it answers invalid items with per-item errors instead.
 */
@Component
@GlobalServerInterceptor
@Order(InterceptorOrder.VALIDATION)
public class ValidationInterceptor implements ServerInterceptor {

  private static final String SYNC_PEOPLE = PersonServiceGrpc.getSyncPeopleMethod().getFullMethodName();

  private final RequestValidator validator;
  private final ErrorMapper errors;
  private final Phases phases;

  public ValidationInterceptor(RequestValidator validator, ErrorMapper errors, Phases phases) {
    this.phases = phases;
    this.validator = validator;
    this.errors = errors;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    var method = call.getMethodDescriptor();
    // By name: the descriptor served is UndecodedRequests' copy, not the generated one.
    if (!PersonServiceGrpc.SERVICE_NAME.equals(method.getServiceName())
        || method.getFullMethodName().equals(SYNC_PEOPLE)) {
      return next.startCall(call, headers);
    }
    ClosingOnceServerCall<ReqT, RespT> guarded = new ClosingOnceServerCall<>(call);
    boolean clientStreams = method.getType() == MethodType.CLIENT_STREAMING
        || method.getType() == MethodType.BIDI_STREAMING;
    return new RefusingListener<>(next.startCall(guarded, headers), guarded) {
      private long position;

      @Override
      public void onMessage(ReqT message) {
        if (isOver()) {
          return;
        }
        long start = System.nanoTime();
        Violations violations = validator.violations((Message) message);
        phases.since(start, method.getBareMethodName(), "validate");
        if (violations == null) {
          position++;
          super.onMessage(message);
          return;
        }
        String where = clientStreams ? StreamPositions.message(position) + " is invalid" : "";
        refuse(errors.toGrpc(new InvalidRequestException(
            RequestValidator.describe(where, (Message) message, violations), violations)));
      }
    };
  }
}
