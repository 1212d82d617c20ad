package com.acme.bench;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.ValidateTokenRequest;
import io.grpc.ManagedChannel;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * auth-node's ValidateToken over gRPC and over its REST twin, beside the ceiling of the
 * platform it runs on: a bare Node server (node/ceiling.mjs) answering the same bytes over
 * HTTP/2 with trailers and over HTTP/1.1, in a container of the same image with the same
 * memory limit. One h2load for all four, 1 and 50 clients, the four interleaved in each
 * repetition, so gRPC ÷ REST and the ceiling's h2 ÷ h1 come from the same minutes.
 */
final class AuthNodeCeiling implements AutoCloseable {
  private static final int H2_PORT = 50051;
  private static final int H1_PORT = 8081;
  private static final List<String> GRPC = List.of("content-type: application/grpc", "te: trailers");
  private static final List<String> JSON = List.of("content-type: application/json");

  private final Services services;
  private final Results results;
  private final Path grpcRequest;
  private final Path jsonRequest;
  private final GenericContainer<?> ceiling;

  AuthNodeCeiling(Services services, Results results, Path root, Path work) throws Exception {
    this.services = services;
    this.results = results;
    ValidateTokenRequest request = ValidateTokenRequest.newBuilder().setToken(services.token).build();
    grpcRequest = External.grpcFrame(request, work, "auth-ceiling-validate.grpc");
    jsonRequest = Files.writeString(work.resolve("auth-ceiling-validate.json"), "{\"token\":\"" + services.token + "\"}");

    // What auth-node answers, so the ceiling answers exactly that.
    byte[] message;
    ManagedChannel channel = Services.channel(services.authTarget);
    try {
      message = AuthServiceGrpc.newBlockingStub(channel).validateToken(request).toByteArray();
    } finally {
      channel.shutdownNow();
    }
    HttpResponse<String> rest = Services.http().send(
        HttpRequest.newBuilder(Services.uri(services.authRest, "/api/validate"))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofFile(jsonRequest))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    String version = rest.headers().firstValue("acme-contracts-version").orElseThrow();
    long memory = Long.parseLong(External.run(
        List.of("docker", "inspect", "-f", "{{.HostConfig.Memory}}", services.authContainer), Map.of()).trim());

    // The image auth-node's container runs: the same Node, the same base.
    String image = External.run(List.of("docker", "inspect", "-f", "{{.Config.Image}}", services.authContainer), Map.of()).trim();
    ceiling = new GenericContainer<>(DockerImageName.parse(image))
        .withImagePullPolicy(name -> false)
        .withCopyFileToContainer(MountableFile.forHostPath(root.resolve("benchmarks/node/ceiling.mjs")), "/app/ceiling.mjs")
        .withCommand("node", "/app/ceiling.mjs")
        .withEnv(Map.of(
            "CEILING_H2_PORT", String.valueOf(H2_PORT),
            "CEILING_H1_PORT", String.valueOf(H1_PORT),
            "CEILING_GRPC_MESSAGE", Base64.getEncoder().encodeToString(message),
            "CEILING_JSON", rest.body(),
            "CEILING_HEADERS", "{\"acme-contracts-version\":\"" + version + "\"}"))
        .withExposedPorts(H2_PORT, H1_PORT)
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMemory(memory))
        .waitingFor(Wait.forLogMessage(".*ceiling listening.*", 1).withStartupTimeout(Duration.ofSeconds(60)));
    ceiling.start();
  }

  /** One repetition: for 1 and 50 clients, auth-node's REST and gRPC, then the ceiling's h1 and h2. */
  void run(int requests, int rep) throws Exception {
    String h1 = "http://127.0.0.1:" + ceiling.getMappedPort(H1_PORT);
    String h2 = "http://127.0.0.1:" + ceiling.getMappedPort(H2_PORT);
    for (int clients : new int[] {1, 50}) {
      int n = requests * (clients == 1 ? 1 : 2);
      String x = "c" + clients;
      record("auth-node", "rest", x, rep, External.h2load(
          "http://" + services.authRest + "/api/validate", true, true, jsonRequest, JSON, n, clients, 0));
      record("auth-node", "grpc", x, rep, External.h2load(
          "http://" + services.authTarget + "/acme.auth.v1.AuthService/ValidateToken", false, true, grpcRequest, GRPC, n, clients, 0));
      record("node-ceiling", "h1", x, rep, External.h2load(h1 + "/api/validate", true, true, jsonRequest, JSON, n, clients, 0));
      record("node-ceiling", "h2", x, rep, External.h2load(
          h2 + "/acme.auth.v1.AuthService/ValidateToken", false, true, grpcRequest, GRPC, n, clients, 0));
    }
  }

  private void record(String service, String series, String x, int rep, External.Load load) {
    if (load.failed() > 0 || load.ok() == 0) {
      throw new IllegalStateException(service + " " + series + " " + x + ": " + load.failed() + " failed, " + load.ok() + " succeeded");
    }
    results.add("an", service, series, x, "throughput", "req/s", rep, load.rps());
    results.add("an", service, series, x, "mean", "ms", rep, load.mean());
  }

  @Override
  public void close() {
    ceiling.stop();
  }
}
