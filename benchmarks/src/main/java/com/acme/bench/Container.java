package com.acme.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * person-spring's container as the store benchmark drives it (docker CLI): a clean stop and a
 * start (its port is published anew each time).
 */
final class Container {
  private final String name;

  Container(String name) {
    this.name = name;
  }

  /** The host:port the container's gRPC port is published on now. */
  String target() throws IOException, InterruptedException {
    return docker("port", name, "9090/tcp").lines().findFirst().orElseThrow().trim().replace("0.0.0.0:", "127.0.0.1:");
  }

  /** docker stop (SIGTERM: the service drains and closes its store), then docker start. */
  void restart() throws IOException, InterruptedException {
    long started = docker("logs", name).lines().filter(l -> l.contains("Started PersonSpringApplication")).count();
    docker("stop", "--time", "60", name);
    docker("start", name);
    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    while (docker("logs", name).lines().filter(l -> l.contains("Started PersonSpringApplication")).count() <= started) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("person-spring did not start again");
      }
      Thread.sleep(250);
    }
  }

  private static String docker(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>();
    command.add("docker");
    command.addAll(List.of(args));
    return External.run(command, Map.of());
  }
}
