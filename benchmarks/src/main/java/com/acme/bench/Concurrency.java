package com.acme.bench;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Scenario 5 (report 003): CLIENTS callers at once share out REQUESTS GetPerson calls for a
 * stored person whose answer is about 14 KB, then about 256 KB; REST (a pool of kept-alive
 * HTTP/1.1 connections) vs gRPC (one channel: every call multiplexed on one HTTP/2
 * connection). The Python SDK's client runs the same load (External.python).
 */
final class Concurrency {
  static final int CLIENTS = 100;
  static final int[] SIZES_KB = {14, 256};

  private final Services services;
  private final Results results;
  private final java.nio.file.Path root;
  private final String python;

  Concurrency(Services services, Results results, java.nio.file.Path root, String python) {
    this.services = services;
    this.results = results;
    this.root = root;
    this.python = python;
  }

  /** The ids of one stored person per size (registered once, read by every repetition). */
  List<String> store() {
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
      List<String> ids = new ArrayList<>();
      for (int kb : SIZES_KB) {
        ids.add(stub.registerPerson(People.request(People.ofSize(kb << 10))).getPerson().getId());
      }
      return ids;
    } finally {
      channel.shutdownNow();
    }
  }

  void run(List<String> ids, int requests, int rep) throws Exception {
    for (int i = 0; i < SIZES_KB.length; i++) {
      String size = SIZES_KB[i] + "KB";
      String id = ids.get(i);
      HttpClient http = Services.http();
      HttpRequest get =
          HttpRequest.newBuilder(Services.uri(services.personRest, "/api/people/" + id))
              .header("authorization", "Bearer " + services.token)
              .GET()
              .build();
      record("java-rest", size, rep, requests, load(requests, () -> CallsInARow.expect(
          http.send(get, HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 200)));
      ManagedChannel channel = Services.channel(services.personTarget);
      try {
        var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
        GetPersonRequest byId = GetPersonRequest.newBuilder().setId(id).build();
        record("java-grpc", size, rep, requests, load(requests, () -> stub.getPerson(byId)));
      } finally {
        channel.shutdownNow();
      }
      python("python-rest", "rest", services.personRest, id, size, requests, rep);
      python("python-grpc", "grpc", services.personTarget, id, size, requests, rep);
    }
  }

  /** The same load from the Python SDK's client (benchmarks/python/load.py). */
  private void python(String series, String protocol, String target, String id, String size, int requests, int rep)
      throws Exception {
    String out = External.run(
        List.of(python, root.resolve("benchmarks/python/load.py").toString(), protocol, target, id,
            String.valueOf(requests), String.valueOf(CLIENTS)),
        java.util.Map.of("BENCH_TOKEN", services.token));
    var json = tools.jackson.databind.json.JsonMapper.builder().build().readTree(out.lines().reduce((a, b) -> b).orElse(""));
    for (String metric : new String[] {"p50", "p99", "max"}) {
      results.add("s5", "person-spring", series, size, metric, "ms", rep, json.path(metric).asDouble());
    }
    results.add("s5", "person-spring", series, size, "throughput", "req/s", rep, json.path("throughput").asDouble());
  }

  void record(String series, String size, int rep, int requests, Timed timed) {
    results.latencies("s5", "person-spring", series, size, rep, timed.latencies());
    results.add("s5", "person-spring", series, size, "throughput", "req/s", rep, requests / timed.seconds());
  }

  record Timed(Latencies latencies, double seconds) {}

  /** requests calls shared out among CLIENTS threads, each calling in a row; a warm-up of 5 %. */
  private static Timed load(int requests, NewConnections.Call call) throws Exception {
    run(Math.max(CLIENTS, requests / 20), call, new Latencies());
    Latencies latencies = new Latencies();
    long start = System.nanoTime();
    run(requests, call, latencies);
    return new Timed(latencies, (System.nanoTime() - start) / 1e9);
  }

  private static void run(int requests, NewConnections.Call call, Latencies latencies) throws Exception {
    AtomicInteger left = new AtomicInteger(requests);
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int c = 0; c < CLIENTS; c++) {
        running.add(clients.submit(() -> {
          while (left.getAndDecrement() > 0) {
            long t = System.nanoTime();
            call.run();
            latencies.add(System.nanoTime() - t);
          }
          return null;
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
    } finally {
      clients.shutdownNow();
    }
  }
}
