package com.acme.bench;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import com.acme.compat.harness.Topology;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The running services as the benchmarks reach them: their addresses and an admin's real JWT,
 * got by logging in over gRPC. Clients are made per scenario, since how a client connects
 * (one channel, a channel per call, a pool) is what several scenarios compare.
 */
final class Services {
  final String authTarget;
  final String authRest;
  final String personTarget;
  final String personRest;
  final String token;
  final String authContainer;
  final String personContainer;

  Services(Topology topology) {
    authTarget = topology.authTarget();
    authRest = topology.authRestTarget();
    personTarget = topology.personTarget();
    personRest = topology.personRestTarget();
    authContainer = topology.authContainer();
    personContainer = topology.personContainer();
    ManagedChannel auth = channel(authTarget);
    try {
      token =
          AuthServiceGrpc.newBlockingStub(auth)
              .withDeadlineAfter(30, java.util.concurrent.TimeUnit.SECONDS)
              .login(LoginRequest.newBuilder().setUsername(topology.adminUsername).setPassword(topology.adminPassword).build())
              .getToken();
    } finally {
      auth.shutdownNow();
    }
  }

  /** A plaintext channel as a service's clients make one: one HTTP/2 connection, every call on it. */
  static ManagedChannel channel(String target) {
    // Large enough for the 1 MB person of the payload sweep and the 256 KB answers.
    return NettyChannelBuilder.forTarget(target).usePlaintext().maxInboundMessageSize(16 << 20).build();
  }

  /** stub, sending "authorization: Bearer <token>" with every call. */
  <S extends AbstractStub<S>> S authorized(S stub) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** An HTTP/1.1 client with kept-alive connections, as a REST caller uses one. */
  static HttpClient http() {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  }

  static URI uri(String target, String path) {
    return URI.create("http://" + target + path);
  }
}
