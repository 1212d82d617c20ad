package com.acme.bench;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 3 (report 004): persons of growing size at a fixed arrival rate (OpenLoop), as
 * requests (RegisterPerson into the file-backed H2 store) and as responses (GetPerson of a
 * stored person of that size), over the REST twin and gRPC. Per size and protocol: p50, p99,
 * max latency from the due time, achieved rate, dropped and failed percentages.
 */
final class PayloadSweep {
  /** The sizes, by their label; 0 is the smallest valid request (the reports' penguin). */
  static final Map<String, Integer> SIZES = new LinkedHashMap<>();

  static {
    SIZES.put("min", 0);
    SIZES.put("1KB", 1 << 10);
    SIZES.put("10KB", 10 << 10);
    SIZES.put("100KB", 100 << 10);
    SIZES.put("1MB", 1 << 20);
  }

  static final double RATE = 100;

  private final Services services;
  private final Results results;

  PayloadSweep(Services services, Results results) {
    this.services = services;
    this.results = results;
  }

  void run(int count, int rep) throws Exception {
    HttpClient http = Services.http();
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var grpc = services.authorized(PersonServiceGrpc.newFutureStub(channel));
      for (var size : SIZES.entrySet()) {
        Person person = People.ofSize(size.getValue());
        String json = People.json(person);
        if (rep == 1) {
          results.add("s3", "person-spring", "grpc", size.getKey(), "request-bytes", "B", rep, People.request(person).getSerializedSize());
          results.add("s3", "person-spring", "rest", size.getKey(), "request-bytes", "B", rep, json.length());
        }
        HttpRequest post =
            HttpRequest.newBuilder(Services.uri(services.personRest, "/api/people"))
                .header("authorization", "Bearer " + services.token)
                .header("content-type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        record("requests", "rest", size.getKey(), rep, OpenLoop.run(count, RATE, () -> send(http, post, 201)));
        record(
            "requests",
            "grpc",
            size.getKey(),
            rep,
            OpenLoop.run(count, RATE, () -> listen(grpc.withDeadlineAfter(30, TimeUnit.SECONDS).registerPerson(People.request(person)))));

        String id = services.authorized(PersonServiceGrpc.newBlockingStub(channel)).registerPerson(People.request(person)).getPerson().getId();
        HttpRequest get =
            HttpRequest.newBuilder(Services.uri(services.personRest, "/api/people/" + id))
                .header("authorization", "Bearer " + services.token)
                .timeout(Duration.ofSeconds(30))
                .GET()
                .build();
        GetPersonRequest byId = GetPersonRequest.newBuilder().setId(id).build();
        record("responses", "rest", size.getKey(), rep, OpenLoop.run(count, RATE, () -> send(http, get, 200)));
        record(
            "responses",
            "grpc",
            size.getKey(),
            rep,
            OpenLoop.run(count, RATE, () -> listen(grpc.withDeadlineAfter(30, TimeUnit.SECONDS).getPerson(byId))));
      }
    } finally {
      channel.shutdownNow();
    }
  }

  private void record(String direction, String protocol, String size, int rep, OpenLoop.Outcome o) {
    String series = protocol + "-" + direction;
    results.latencies("s3", "person-spring", series, size, rep, o.latencies());
    results.add("s3", "person-spring", series, size, "achieved", "req/s", rep, o.achievedRate());
    results.add("s3", "person-spring", series, size, "dropped", "%", rep, 100.0 * o.dropped() / (o.sent() + o.dropped()));
    results.add("s3", "person-spring", series, size, "failed", "%", rep, 100.0 * o.failed() / (o.sent() + o.dropped()));
    if (o.firstError() != null) {
      results.note("s3 " + series + " " + size + " rep " + rep + ": " + o.failed() + " failed, first: " + o.firstError());
    }
  }

  static CompletableFuture<?> send(HttpClient http, HttpRequest request, int status) {
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
        .thenApply(
            r -> {
              CallsInARow.expect(r.statusCode(), status);
              return r;
            });
  }

  /** A gRPC future as a CompletableFuture, completed on the transport's thread. */
  static <T> CompletableFuture<T> listen(com.google.common.util.concurrent.ListenableFuture<T> future) {
    CompletableFuture<T> done = new CompletableFuture<>();
    future.addListener(
        () -> {
          try {
            done.complete(future.get());
          } catch (Exception e) {
            done.completeExceptionally(e.getCause() != null ? e.getCause() : e);
          }
        },
        Runnable::run);
    return done;
  }
}
