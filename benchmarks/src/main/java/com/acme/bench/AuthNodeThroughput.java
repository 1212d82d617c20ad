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
import java.util.UUID;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;
import tools.jackson.databind.json.JsonMapper;

/**
 * auth-node's ValidateToken under h2load, two comparisons, each inside one repetition:
 * <ul>
 *   <li>"an": over gRPC and over its REST twin, beside the ceiling of the platform it runs on —
 *       a bare Node server (node/ceiling.mjs) answering the same bytes over HTTP/2 with trailers
 *       and over HTTP/1.1, in a container of the same image with the same memory limit;
 *   <li>"am": gRPC with metrics on and with metrics off (AUTH_METRICS_ENABLED), two auth-node
 *       containers started alike but for that setting: what counting every call costs.
 * </ul>
 * One h2load for everything, 1 and 50 clients, the series interleaved, so each ratio comes from
 * the same minutes of the machine.
 */
final class AuthNodeThroughput implements AutoCloseable {
  private static final int RPC_PORT = 50051;
  private static final int REST_PORT = 8081;
  private static final List<String> GRPC = List.of("content-type: application/grpc", "te: trailers");
  private static final List<String> JSON = List.of("content-type: application/json");
  private static final String VALIDATE = "/acme.auth.v1.AuthService/ValidateToken";

  private final Services services;
  private final Results results;
  private final Path work;
  private final Path grpcRequest;
  private final Path jsonRequest;
  private final GenericContainer<?> ceiling;
  private final GenericContainer<?> metricsOn;
  private final GenericContainer<?> metricsOff;
  private final Path metricsOnRequest;
  private final Path metricsOffRequest;

  AuthNodeThroughput(Services services, Results results, Path root, Path work) throws Exception {
    this.services = services;
    this.results = results;
    this.work = work;
    ValidateTokenRequest request = ValidateTokenRequest.newBuilder().setToken(services.token).build();
    grpcRequest = External.grpcFrame(request, work, "auth-validate.grpc");
    jsonRequest = Files.writeString(work.resolve("auth-validate.json"), "{\"token\":\"" + services.token + "\"}");

    // What auth-node answers, so the ceiling answers exactly that.
    byte[] message;
    ManagedChannel channel = Services.channel(services.authTarget);
    try {
      message = AuthServiceGrpc.newBlockingStub(channel).validateToken(request).toByteArray();
    } finally {
      channel.shutdownNow();
    }
    HttpResponse<String> rest = post(services.authRest, "/api/validate", Files.readString(jsonRequest));
    String version = rest.headers().firstValue("acme-contracts-version").orElseThrow();
    // The image and memory limit auth-node's container runs with: the same Node, the same base.
    String image = External.run(List.of("docker", "inspect", "-f", "{{.Config.Image}}", services.authContainer), Map.of()).trim();
    long memory = Long.parseLong(External.run(
        List.of("docker", "inspect", "-f", "{{.HostConfig.Memory}}", services.authContainer), Map.of()).trim());

    ceiling = container(image, memory)
        .withCopyFileToContainer(MountableFile.forHostPath(root.resolve("benchmarks/node/ceiling.mjs")), "/app/ceiling.mjs")
        .withCommand("node", "/app/ceiling.mjs")
        .withEnv(Map.of(
            "CEILING_H2_PORT", String.valueOf(RPC_PORT),
            "CEILING_H1_PORT", String.valueOf(REST_PORT),
            "CEILING_GRPC_MESSAGE", Base64.getEncoder().encodeToString(message),
            "CEILING_JSON", rest.body(),
            "CEILING_HEADERS", "{\"acme-contracts-version\":\"" + version + "\"}"))
        .waitingFor(Wait.forLogMessage(".*ceiling listening.*", 1).withStartupTimeout(Duration.ofSeconds(60)));
    metricsOn = authNode(image, memory, true);
    metricsOff = authNode(image, memory, false);
    ceiling.start();
    metricsOn.start();
    metricsOff.start();
    metricsOnRequest = validateRequest(metricsOn, "auth-validate-metrics-on.grpc");
    metricsOffRequest = validateRequest(metricsOff, "auth-validate-metrics-off.grpc");
  }

  private static GenericContainer<?> container(String image, long memory) {
    return new GenericContainer<>(DockerImageName.parse(image))
        .withImagePullPolicy(name -> false)
        .withExposedPorts(RPC_PORT, REST_PORT)
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withMemory(memory));
  }

  private static final String ADMIN_PASSWORD = "bench-" + UUID.randomUUID();

  private static GenericContainer<?> authNode(String image, long memory, boolean metrics) {
    return container(image, memory)
        .withEnv(Map.of("AUTH_ADMIN_PASSWORD", ADMIN_PASSWORD, "AUTH_METRICS_ENABLED", String.valueOf(metrics)))
        .waitingFor(Wait.forLogMessage(".*\"auth service listening\".*", 1).withStartupTimeout(Duration.ofSeconds(60)));
  }

  /** A ValidateToken request with a token of that container's own admin, as a gRPC frame. */
  private Path validateRequest(GenericContainer<?> auth, String name) throws Exception {
    HttpResponse<String> login = post(target(auth, REST_PORT), "/api/login",
        "{\"username\":\"admin\",\"password\":\"" + ADMIN_PASSWORD + "\"}");
    if (login.statusCode() != 200) {
      throw new IllegalStateException("login at the benchmark's own auth-node failed: " + login.statusCode() + " " + login.body());
    }
    String token = JsonMapper.builder().build().readTree(login.body()).path("token").asString();
    return External.grpcFrame(ValidateTokenRequest.newBuilder().setToken(token).build(), work, name);
  }

  /** One repetition: for 1 and 50 clients, every series once, interleaved. */
  void run(int requests, int rep) throws Exception {
    String h1 = "http://" + target(ceiling, REST_PORT);
    String h2 = "http://" + target(ceiling, RPC_PORT);
    for (int clients : new int[] {1, 50}) {
      int n = requests * (clients == 1 ? 1 : 2);
      String x = "c" + clients;
      record("an", "auth-node", "rest", x, rep, External.h2load(
          "http://" + services.authRest + "/api/validate", true, true, jsonRequest, JSON, n, clients, 0));
      record("an", "auth-node", "grpc", x, rep, External.h2load(
          "http://" + services.authTarget + VALIDATE, false, true, grpcRequest, GRPC, n, clients, 0));
      record("an", "node-ceiling", "h1", x, rep, External.h2load(h1 + "/api/validate", true, true, jsonRequest, JSON, n, clients, 0));
      record("an", "node-ceiling", "h2", x, rep, External.h2load(h2 + VALIDATE, false, true, grpcRequest, GRPC, n, clients, 0));
      record("am", "auth-node", "metrics-on", x, rep, External.h2load(
          "http://" + target(metricsOn, RPC_PORT) + VALIDATE, false, true, metricsOnRequest, GRPC, n, clients, 0));
      record("am", "auth-node", "metrics-off", x, rep, External.h2load(
          "http://" + target(metricsOff, RPC_PORT) + VALIDATE, false, true, metricsOffRequest, GRPC, n, clients, 0));
    }
  }

  private void record(String scenario, String service, String series, String x, int rep, External.Load load) {
    if (load.failed() > 0 || load.ok() == 0) {
      throw new IllegalStateException(service + " " + series + " " + x + ": " + load.failed() + " failed, " + load.ok() + " succeeded");
    }
    results.add(scenario, service, series, x, "throughput", "req/s", rep, load.rps());
    results.add(scenario, service, series, x, "mean", "ms", rep, load.mean());
  }

  private static HttpResponse<String> post(String target, String path, String json) throws Exception {
    return Services.http().send(
        HttpRequest.newBuilder(Services.uri(target, path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String target(GenericContainer<?> container, int port) {
    return "127.0.0.1:" + container.getMappedPort(port);
  }

  @Override
  public void close() {
    metricsOff.stop();
    metricsOn.stop();
    ceiling.stop();
  }
}
