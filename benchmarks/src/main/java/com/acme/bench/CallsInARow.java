package com.acme.bench;

import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import io.grpc.ManagedChannel;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 1 (report 000): N RegisterPerson calls in a row on one connection, each waiting for
 * its answer, over the REST twin, gRPC unary and one RegisterPeople client stream. Total time
 * per N, after WARMUP calls of the same kind on the same connection.
 */
final class CallsInARow {
  static final int WARMUP = 50;

  private final Services services;
  private final Results results;
  /** Whose figures these are: person-spring, or person-spring-transport-only (nothing stored). */
  private final String service;
  private final Person person = People.penguin();
  private final String json = People.json(People.penguin());

  CallsInARow(Services services, Results results) {
    this(services, results, "person-spring");
  }

  CallsInARow(Services services, Results results, String service) {
    this.services = services;
    this.results = results;
    this.service = service;
  }

  void run(int[] ns, int rep) throws Exception {
    for (int n : ns) {
      results.add("s1", service, "rest", n, "total", "ms", rep, rest(n));
      results.add("s1", service, "grpc-unary", n, "total", "ms", rep, unary(n));
      results.add("s1", service, "grpc-client-stream", n, "total", "ms", rep, stream(n));
    }
  }

  private double rest(int n) throws Exception {
    HttpClient http = Services.http();
    HttpRequest request =
        HttpRequest.newBuilder(Services.uri(services.personRest, "/api/people"))
            .header("authorization", "Bearer " + services.token)
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    for (int i = 0; i < WARMUP; i++) {
      expect(http.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 201);
    }
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      expect(http.send(request, HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 201);
    }
    return (System.nanoTime() - start) / 1e6;
  }

  private double unary(int n) {
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
      for (int i = 0; i < WARMUP; i++) {
        stub.registerPerson(People.request(person));
      }
      // A fresh request_id per call, as a real client makes one; building it is timed too.
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        stub.registerPerson(People.request(person));
      }
      return (System.nanoTime() - start) / 1e6;
    } finally {
      channel.shutdownNow();
    }
  }

  private double stream(int n) throws Exception {
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var stub = services.authorized(PersonServiceGrpc.newStub(channel));
      send(stub, WARMUP);
      long start = System.nanoTime();
      send(stub, n);
      return (System.nanoTime() - start) / 1e6;
    } finally {
      channel.shutdownNow();
    }
  }

  /** One RegisterPeople stream of n people, honouring flow control; returns when answered. */
  private void send(PersonServiceGrpc.PersonServiceStub stub, int n) throws Exception {
    RegisterPeopleRequest request = RegisterPeopleRequest.newBuilder().setPerson(person).build();
    long stored = StreamFeeder.feed(stub::registerPeople, n, i -> request).get(10, TimeUnit.MINUTES).getCount();
    if (stored != n) {
      throw new IllegalStateException("RegisterPeople stored " + stored + " of " + n);
    }
  }

  static void expect(int status, int wanted) {
    if (status != wanted) {
      throw new IllegalStateException("HTTP " + status + ", expected " + wanted);
    }
  }
}
