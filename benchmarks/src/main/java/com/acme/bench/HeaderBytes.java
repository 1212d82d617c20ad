package com.acme.bench;

import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Scenario 2 (report 001): the request header bytes of a repeated authenticated call with our
 * real JWT, counted on the wire by WireCounter, first call and steady state (the median of
 * the calls after the first). person-spring's GetPerson over the REST twin (HTTP/1.1) and gRPC
 * (HTTP/2, HPACK); auth-node's ListUsers over gRPC and Connect from the TypeScript SDK's Connect for Node client
 * (benchmarks/node/calls.mjs), both on HTTP/2 (the port also speaks HTTP/1.1 for browsers; these clients use HTTP/2).
 */
final class HeaderBytes {
  private final Services services;
  private final Results results;
  private final Path root;

  HeaderBytes(Services services, Results results, Path root) {
    this.services = services;
    this.results = results;
    this.root = root;
  }

  interface Calls {
    void run(String proxyTarget) throws Exception;
  }

  void run(int calls, int rep) throws Exception {
    String id;
    ManagedChannel direct = Services.channel(services.personTarget);
    try {
      id = services.authorized(PersonServiceGrpc.newBlockingStub(direct)).registerPerson(People.request(People.penguin())).getPerson().getId();
    } finally {
      direct.shutdownNow();
    }
    measure("person-spring", "rest-http1.1", calls, rep, services.personRest, proxy -> {
      HttpClient http = Services.http();
      HttpRequest get =
          HttpRequest.newBuilder(Services.uri(proxy, "/api/people/" + id))
              .header("authorization", "Bearer " + services.token)
              .GET()
              .build();
      for (int i = 0; i < calls; i++) {
        CallsInARow.expect(http.send(get, HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 200);
      }
    });
    measure("person-spring", "grpc", calls, rep, services.personTarget, proxy -> {
      ManagedChannel channel = Services.channel(proxy);
      try {
        var stub = services.authorized(PersonServiceGrpc.newBlockingStub(channel));
        for (int i = 0; i < calls; i++) {
          stub.getPerson(GetPersonRequest.newBuilder().setId(id).build());
        }
      } finally {
        channel.shutdownNow();
      }
    });
    measure("auth-node", "grpc", calls, rep, services.authTarget, proxy -> node(proxy, "grpc", "2", calls));
    measure("auth-node", "connect-http2", calls, rep, services.authTarget, proxy -> node(proxy, "connect", "2", calls));
  }

  private void measure(String service, String series, int calls, int rep, String target, Calls run) throws Exception {
    try (WireCounter wire = new WireCounter(target)) {
      run.run(wire.target());
      List<Integer> headers = wire.headerBytes();
      if (headers.size() != calls) {
        throw new IllegalStateException(series + ": the proxy saw " + headers.size() + " header blocks for " + calls + " calls");
      }
      List<Integer> steady = new ArrayList<>(headers.subList(1, headers.size()));
      Collections.sort(steady);
      results.add("s2", service, series, calls, "first", "B", rep, headers.get(0));
      results.add("s2", service, series, calls, "steady", "B", rep, steady.get(steady.size() / 2));
      results.add("s2", service, series, calls, "all-bytes-sent", "B", rep, wire.totalBytes());
    }
  }

  private void node(String proxy, String protocol, String httpVersion, int calls) throws Exception {
    // The token through the environment, not the command line (ps shows that).
    String out = External.run(
        List.of("node", root.resolve("benchmarks/node/calls.mjs").toString(), "http://" + proxy, protocol, httpVersion,
            String.valueOf(calls)),
        Map.of("BENCH_TOKEN", services.token)).trim();
    if (!out.equals(String.valueOf(calls))) {
      throw new IllegalStateException("calls.mjs " + protocol + " " + httpVersion + ": " + out);
    }
  }
}
