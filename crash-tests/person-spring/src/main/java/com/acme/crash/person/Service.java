package com.acme.crash.person;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * person-spring's container as the crash test drives it: through the docker CLI, as an operator
 * (or the kernel's OOM killer) would. Its gRPC port is read again after every start, since
 * docker publishes it on a new host port each time.
 */
final class Service {
  private static final String STARTED = "Started PersonSpringApplication";
  /** Generous: on a machine busy with other work, Spring's start alone has taken 90 s. */
  private static final Duration STARTUP = Duration.ofMinutes(5);

  private final String container;
  private final String token;
  private String target;

  Service(String container, String token) throws IOException, InterruptedException {
    this.container = container;
    this.token = token;
    if (!running()) {
      // An earlier scenario left it stopped (its restart failed): this scenario starts it again
      // and fails, if it must, for a reason of its own, not for a container it cannot find.
      CrashTest.log("person-spring is not running (an earlier scenario left it stopped): starting it");
      start();
    } else {
      readPort();
    }
  }

  /** A new channel to the service as it runs now: one HTTP/2 connection, every call on it. */
  ManagedChannel channel() {
    return NettyChannelBuilder.forTarget(target).usePlaintext().maxInboundMessageSize(16 << 20).build();
  }

  /** stub, sending the admin's token with every call. */
  <S extends AbstractStub<S>> S authorized(S stub) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  /** SIGKILL: the process dies at once, with whatever it had not yet written. */
  void kill() throws IOException, InterruptedException {
    docker("kill", "--signal", "KILL", container);
  }

  /**
   * SIGTERM, then waits up to grace + 30 s for the container to exit. Returns how long it took;
   * fails if docker had to SIGKILL it (exit code 137).
   */
  Duration stop(Duration grace) throws IOException, InterruptedException {
    long start = System.nanoTime();
    docker("stop", "--time", Long.toString(grace.toSeconds() + 30), container);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    String exit = docker("inspect", "--format", "{{.State.ExitCode}}", container).trim();
    if (exit.equals("137")) {
      throw new IllegalStateException("person-spring did not stop on SIGTERM within " + grace.plusSeconds(30)
          + " and was killed");
    }
    return took;
  }

  /** docker start of the same container (same data), then waits until it serves again. */
  void start() throws IOException, InterruptedException {
    int started = countLines(STARTED);
    docker("start", container);
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (countLines(STARTED) <= started) {
      if (!running()) {
        throw new IllegalStateException("person-spring exited on restart:\n" + tail(40));
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("person-spring did not start again within " + STARTUP + ":\n" + tail(40));
      }
      Thread.sleep(250);
    }
    readPort();
  }

  private boolean running() throws IOException, InterruptedException {
    return docker("inspect", "--format", "{{.State.Running}}", container).trim().equals("true");
  }

  /** Where the container's gRPC port is published now (a new host port after each start). */
  private void readPort() throws IOException, InterruptedException {
    String port = docker("port", container, "9090/tcp").lines().findFirst().orElseThrow().trim();
    target = port.replace("0.0.0.0:", "127.0.0.1:");
  }

  /** Runs a command inside the container, as the service's own user. */
  String exec(String... command) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>(List.of("exec", container));
    args.addAll(List.of(command));
    return docker(args.toArray(String[]::new));
  }

  /** The container's log, every start of it. */
  String log() throws IOException, InterruptedException {
    return docker("logs", container);
  }

  String tail(int lines) throws IOException, InterruptedException {
    List<String> all = log().lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
  }

  private int countLines(String text) throws IOException, InterruptedException {
    return (int) log().lines().filter(l -> l.contains(text)).count();
  }

  private static String docker(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }
}
