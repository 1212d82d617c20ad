package com.acme.bench;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The independent load generators, against the same containers:
 * - h2load for both protocols at 1 and 50 concurrent clients on person-spring's GetPerson: one
 *   client program for both, so the only difference left is the protocol (auth-node's
 *   ValidateToken is measured the same way, beside its platform's ceiling: AuthNodeCeiling);
 * - scenario 1's calls in a row again, with ghz (gRPC) and h2load (REST), at one N;
 * - scenario 3's responses again at 100 requests/s, with ghz and h2load.
 */
final class CrossCheck {
  private final Services services;
  private final Results results;
  private final Path work;

  CrossCheck(Services services, Results results, Path work) {
    this.services = services;
    this.results = results;
    this.work = work;
  }

  private List<String> bearer() {
    return List.of("authorization: Bearer " + services.token);
  }

  private static final List<String> GRPC = List.of("content-type: application/grpc", "te: trailers");

  private List<String> grpcAuthorized() {
    List<String> headers = new java.util.ArrayList<>(GRPC);
    headers.addAll(bearer());
    return headers;
  }

  /** h2load, same client for both protocols, c = 1 and 50, person-spring. */
  void sameClient(int requests, int rep) throws Exception {
    String id = storePerson(People.penguin());
    Path getPerson = External.grpcFrame(GetPersonRequest.newBuilder().setId(id).build(), work, "get-person.grpc");
    for (int clients : new int[] {1, 50}) {
      String x = "c" + clients;
      int n = requests * (clients == 1 ? 1 : 2);
      int sent = n;
      record("person-spring", "h2load-rest", x, rep, answered(GET_PERSON, 200, n, () -> External.h2load(
          "http://" + services.personRest + "/api/people/" + id, true, false, null, bearer(), sent, clients, 0)));
      record("person-spring", "h2load-grpc", x, rep, External.h2load(
          "http://" + services.personTarget + "/acme.person.v1.PersonService/GetPerson", false, true, getPerson, grpcAuthorized(), n, clients, 0));
    }
  }

  /** Scenario 1 by the outside tools: n RegisterPerson calls in a row on one connection. */
  void callsInARow(int n, int rep) throws Exception {
    Path json = Files.writeString(work.resolve("penguin.json"), People.json(People.penguin()));
    List<String> headers = List.of("content-type: application/json", "authorization: Bearer " + services.token);
    External.Load rest = answered(REGISTER_PERSON, 201, n,
        () -> External.h2load("http://" + services.personRest + "/api/people", true, false, json, headers, n, 1, 0));
    failIfFailed("h2load RegisterPerson (REST)", rest);
    results.add("s1x", "person-spring", "h2load-rest", n, "total", "ms", rep, rest.seconds() * 1000);
    External.Load grpc = External.ghz(services.personTarget, "acme.person.v1.PersonService.RegisterPerson",
        "{\"request_id\":\"{{newUUID}}\",\"person\":{\"name\":\"polar penguin\",\"age\":20}}", services.token, n, 1, 1, 0);
    failIfFailed("ghz RegisterPerson", grpc);
    results.add("s1x", "person-spring", "ghz-grpc-unary", n, "total", "ms", rep, grpc.seconds() * 1000);
  }

  /** Scenario 3's responses by the outside tools, at 100 requests/s. */
  void payloadSweep(int count, int rep) throws Exception {
    for (var size : PayloadSweep.SIZES.entrySet()) {
      String id = storePerson(People.ofSize(size.getValue()));
      // ghz: -r caps the rate; 100 workers, so a slow answer does not hold up the next.
      External.Load grpc = External.ghz(services.personTarget, "acme.person.v1.PersonService.GetPerson",
          "{\"id\":\"" + id + "\"}", services.token, count, 100, 1, (int) PayloadSweep.RATE);
      failIfFailed("ghz GetPerson " + size.getKey(), grpc);
      results.add("s3x", "person-spring", "ghz-grpc-responses", size.getKey(), "p50", "ms", rep, grpc.p50());
      results.add("s3x", "person-spring", "ghz-grpc-responses", size.getKey(), "p99", "ms", rep, grpc.p99());
      results.add("s3x", "person-spring", "ghz-grpc-responses", size.getKey(), "achieved", "req/s", rep, grpc.rps());
      // h2load: 10 connections at 10 requests/s each.
      External.Load rest = answered(GET_PERSON, 200, count, () -> External.h2load(
          "http://" + services.personRest + "/api/people/" + id, true, false, null, bearer(), count, 10, (int) PayloadSweep.RATE / 10));
      failIfFailed("h2load GetPerson (REST) " + size.getKey(), rest);
      results.add("s3x", "person-spring", "h2load-rest-responses", size.getKey(), "mean", "ms", rep, rest.mean());
      results.add("s3x", "person-spring", "h2load-rest-responses", size.getKey(), "achieved", "req/s", rep, rest.rps());
    }
  }

  private static final String GET_PERSON = "uri=\"/api/people/{id}\"";
  private static final String REGISTER_PERSON = "uri=\"/api/people\"";

  interface Run {
    External.Load run() throws Exception;
  }

  /**
   * Runs h2load against person-spring's REST twin and checks by the service's own request
   * counter (http_server_requests_seconds_count) that each of the n calls got status.
   */
  private External.Load answered(String uri, int status, int n, Run run) throws Exception {
    String[] labels = {uri, "status=\"" + status + "\""};
    double before = Prometheus.scrape(services.personRest).sum("http_server_requests_seconds_count", labels);
    External.Load load = run.run();
    double after = Prometheus.scrape(services.personRest).sum("http_server_requests_seconds_count", labels);
    if (after - before != n) {
      throw new IllegalStateException("person-spring answered " + (after - before) + " of h2load's " + n + " calls with " + status);
    }
    return load;
  }

  private void record(String service, String series, String x, int rep, External.Load load) {
    failIfFailed(service + " " + series + " " + x, load);
    results.add("xc", service, series, x, "throughput", "req/s", rep, load.rps());
    results.add("xc", service, series, x, "mean", "ms", rep, load.mean());
  }

  private static void failIfFailed(String what, External.Load load) {
    if (load.failed() > 0 || load.ok() == 0) {
      throw new IllegalStateException(what + ": " + load.failed() + " failed, " + load.ok() + " succeeded");
    }
  }

  private String storePerson(com.acme.person.v1.Person person) {
    ManagedChannel channel = Services.channel(services.personTarget);
    try {
      var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
      String id = stub.registerPerson(People.request(person)).getPerson().getId();
      stub.getPerson(GetPersonRequest.newBuilder().setId(id).build()); // h2load cannot tell a gRPC error: the call works
      return id;
    } finally {
      channel.shutdownNow();
    }
  }
}
