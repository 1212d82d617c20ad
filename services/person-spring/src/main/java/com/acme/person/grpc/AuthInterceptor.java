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

  /**
   * The caller OffloadingInterceptor found in the token cache when it ran the call on the
   * transport thread. Used as it is: validating again could find the entry expired and call
   * the auth service from that thread, whose answer the same thread must read (a deadlock the
   * benchmarks hit when a cached answer expired in between).
   */
  static final Context.Key<Caller> CACHED_CALLER = Context.key("acme-cached-caller");

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
    Caller caller = CACHED_CALLER.get();
    try {
      long start = System.nanoTime();
      if (caller == null) {
        caller = tokens.validateHeader(headers.get(AUTHORIZATION));
      }
      phases.since(start, call.getMethodDescriptor().getBareMethodName(), "auth");
    } catch (RuntimeException e) {
      StatusRuntimeException status = errors.toGrpc(e);
      call.close(status.getStatus(), status.getTrailers());
      return new ServerCall.Listener<>() {};
    }
    return Contexts.interceptCall(Context.current().withValue(CALLER, caller), call, headers, next);
  }
}
