package com.acme.person;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.Role;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import com.acme.person.mapping.ProtoTimes;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real acme.auth.v1.AuthService on a port-0 gRPC server, standing in for the Node auth
 * service in unit tests: it issues opaque tokens with an expiry and checks them like the real
 * one does (UNAUTHENTICATED when unknown or expired). The token "hang" is never answered, to
 * test the caller's deadline. The real service is exercised by the compatibility tests.
 */
public final class StandInAuthService extends AuthServiceGrpc.AuthServiceImplBase {

  public static final String HANG = "hang";
  /** Tokens issued by issueSlow start so, and are answered this long after they are asked. */
  private static final String SLOW = "slow-";
  private static final long SLOW_MILLIS = 300;

  private static StandInAuthService shared;
  private static final Metadata.Key<String> TRACEPARENT = Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);

  private final Map<String, Instant> tokens = new ConcurrentHashMap<>();
  private final AtomicInteger validations = new AtomicInteger();
  /** The traceparent header of every call, as it came (the tracing test reads them). */
  private final Queue<String> traceparents = new ConcurrentLinkedQueue<>();
  private final Server server;

  private StandInAuthService() {
    ServerInterceptor recordTraceparent = new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        String traceparent = headers.get(TRACEPARENT);
        if (traceparent != null) {
          traceparents.add(traceparent);
        }
        return next.startCall(call, headers);
      }
    };
    try {
      server = NettyServerBuilder.forPort(0).addService(ServerInterceptors.intercept(this, recordTraceparent)).build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One stand-in for the whole test JVM, like one auth service for the whole deployment. */
  public static synchronized StandInAuthService shared() {
    if (shared == null) {
      shared = new StandInAuthService();
    }
    return shared;
  }

  public int port() {
    return server.getPort();
  }

  public String issue(Duration validFor) {
    String token = "tok-" + UUID.randomUUID();
    tokens.put(token, Instant.now().plus(validFor));
    return token;
  }

  /** A token like issue's, answered only after a while: calls with it overlap its check. */
  public String issueSlow(Duration validFor) {
    String token = SLOW + issue(validFor);
    tokens.put(token, Instant.now().plus(validFor));
    return token;
  }

  /** Revokes a token, as the real service does when its user is disabled. */
  public void revoke(String token) {
    tokens.remove(token);
  }

  public List<String> traceparents() {
    return List.copyOf(traceparents);
  }

  public int validations() {
    return validations.get();
  }

  @Override
  public void validateToken(
      ValidateTokenRequest request, StreamObserver<ValidateTokenResponse> response) {
    validations.incrementAndGet();
    if (request.getToken().equals(HANG)) {
      return; // never answered: the caller's deadline must fire
    }
    if (request.getToken().startsWith(SLOW)) {
      try {
        Thread.sleep(SLOW_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    Instant expiresAt = tokens.get(request.getToken());
    if (expiresAt == null || !expiresAt.isAfter(Instant.now())) {
      response.onError(Status.UNAUTHENTICATED.withDescription("invalid token").asRuntimeException());
      return;
    }
    response.onNext(
        ValidateTokenResponse.newBuilder()
            .setSubject("alice")
            .addRoles(Role.ROLE_USER)
            .setExpiresAt(ProtoTimes.toTimestamp(expiresAt))
            .build());
    response.onCompleted();
  }
}
