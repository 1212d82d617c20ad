package com.acme.contracts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.ListUsersRequest;
import com.acme.auth.v1.ListUsersResponse;
import com.acme.auth.v1.LoginRequest;
import com.acme.auth.v1.LoginResponse;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.auth.v1.ValidateTokenResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shipped service config through a real gRPC server (in-process transport, grpc-java's own
 * retry machinery): a server that fails a given number of times with a given code, then answers.
 */
class ServiceConfigRetryTest {

  /** The codes the next calls of each method fail with, in order; then OK. */
  private final Map<String, Deque<Status>> failures = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> received = new ConcurrentHashMap<>();
  private Server server;
  private ManagedChannel channel;
  private AuthServiceGrpc.AuthServiceBlockingStub auth;

  private <T> void answer(String method, T response, StreamObserver<T> out) {
    received.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
    Status failure = failures.getOrDefault(method, new ArrayDeque<>()).poll();
    if (failure != null) {
      out.onError(failure.asRuntimeException());
      return;
    }
    out.onNext(response);
    out.onCompleted();
  }

  private void fail(String method, Status status, int times) {
    Deque<Status> queue = new ArrayDeque<>();
    for (int i = 0; i < times; i++) {
      queue.add(status);
    }
    failures.put(method, queue);
  }

  private int received(String method) {
    return received.getOrDefault(method, new AtomicInteger()).get();
  }

  @BeforeEach
  void start() throws Exception {
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name)
        .addService(new AuthServiceGrpc.AuthServiceImplBase() {
          @Override
          public void login(LoginRequest request, StreamObserver<LoginResponse> out) {
            answer("Login", LoginResponse.newBuilder().setToken("t").build(), out);
          }

          @Override
          public void validateToken(ValidateTokenRequest request, StreamObserver<ValidateTokenResponse> out) {
            answer("ValidateToken", ValidateTokenResponse.newBuilder().setSubject("ada").build(), out);
          }

          @Override
          public void listUsers(ListUsersRequest request, StreamObserver<ListUsersResponse> out) {
            answer("ListUsers", ListUsersResponse.getDefaultInstance(), out);
          }
        })
        .build().start();
    channel = InProcessChannelBuilder.forName(name)
        .defaultServiceConfig(ServiceConfig.get())
        .enableRetry()
        .build();
    auth = AuthServiceGrpc.newBlockingStub(channel);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
  }

  private static int maxAttempts() {
    Map<?, ?> config = (Map<?, ?>) ((List<?>) ServiceConfig.get().get("methodConfig")).get(0);
    return ((Double) ((Map<?, ?>) config.get("retryPolicy")).get("maxAttempts")).intValue();
  }

  @Test
  void anIdempotentRpcIsRetriedOnUnavailableUntilItSucceeds() {
    fail("ValidateToken", Status.UNAVAILABLE, 2);
    assertEquals("ada", auth.validateToken(ValidateTokenRequest.newBuilder().setToken("t").build()).getSubject());
    assertEquals(3, received("ValidateToken"));
  }

  @Test
  void atMostMaxAttemptsThenTheLastUnavailable() {
    fail("ValidateToken", Status.UNAVAILABLE, 10);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> auth.validateToken(ValidateTokenRequest.newBuilder().setToken("t").build()));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals(maxAttempts(), received("ValidateToken"));
  }

  /** A stream cut before its status arrived (a balancer's replica died mid-answer) is INTERNAL. */
  @Test
  void anIdempotentRpcIsRetriedOnInternal() {
    fail("ValidateToken", Status.INTERNAL, 1);
    assertEquals("ada", auth.validateToken(ValidateTokenRequest.newBuilder().setToken("t").build()).getSubject());
    assertEquals(2, received("ValidateToken"));
  }

  @Test
  void aCodeThatTellsTheOutcomeIsNotRetried() {
    for (Status status : List.of(Status.UNKNOWN, Status.DEADLINE_EXCEEDED, Status.UNAUTHENTICATED)) {
      received.clear();
      fail("ListUsers", status, 1);
      StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
          () -> auth.listUsers(ListUsersRequest.getDefaultInstance()));
      assertEquals(status.getCode(), e.getStatus().getCode());
      assertEquals(1, received("ListUsers"), status.getCode().toString());
    }
  }

  @Test
  void aNonIdempotentRpcIsNotRetried() {
    fail("Login", Status.UNAVAILABLE, 1);
    StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
        () -> auth.login(LoginRequest.newBuilder().setUsername("ada").setPassword("x").build()));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals(1, received("Login"));
  }
}
