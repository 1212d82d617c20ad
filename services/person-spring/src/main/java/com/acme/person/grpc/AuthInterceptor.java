package com.acme.person.grpc;

import com.acme.person.auth.Caller;
import com.acme.person.auth.TokenValidator;
import com.acme.person.error.ErrorMapper;
import com.acme.person.metrics.Phases;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;
import org.springframework.stereotype.Component;

/**
 * Every PersonService call needs "authorization: Bearer <token>", checked with the auth
 * service; health and reflection stay open. Runs before validation, so an unauthenticated
 * caller learns nothing about the rules.
 */
@Component
@GlobalServerInterceptor
@Order(InterceptorOrder.AUTH)
public class AuthInterceptor implements ServerInterceptor {

  /** The authenticated caller, for handlers that want to know who calls. */
  public static final Context.Key<Caller> CALLER = Context.key("acme.caller");

  static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);

  private final TokenValidator tokens;
  private final ErrorMapper errors;
  private final Phases phases;

  public AuthInterceptor(TokenValidator tokens, ErrorMapper errors, Phases phases) {
    this.phases = phases;
    this.tokens = tokens;
    this.errors = errors;
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(
      ServerCall<ReqT, RespT> call, Metadata headers, ServerCallHandler<ReqT, RespT> next) {
    if (!PersonServiceGrpc.SERVICE_NAME.equals(call.getMethodDescriptor().getServiceName())) {
      return next.startCall(call, headers);
    }
    Caller caller;
    try {
      long start = System.nanoTime();
      caller = tokens.validateHeader(headers.get(AUTHORIZATION));
      phases.since(start, call.getMethodDescriptor().getBareMethodName(), "auth");
    } catch (RuntimeException e) {
      StatusRuntimeException status = errors.toGrpc(e);
      call.close(status.getStatus(), status.getTrailers());
      return new ServerCall.Listener<>() {};
    }
    return Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
  }
}
