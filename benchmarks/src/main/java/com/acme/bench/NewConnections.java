package com.acme.bench;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.ValidateTokenRequest;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Scenario 4 (report 002): the same call n times in a row, over a connection kept alive and
 * over a new connection per call (REST: "Connection: close"; gRPC: a new channel, closed after
 * the call), on both services: person-spring's GetPerson and auth-node's ValidateToken. What
 * the second costs more than the first is the price of setting up a connection.
 */
final class NewConnections {
  private final Services services;
  private final Results results;

  NewConnections(Services services, Results results) {
    this.services = services;
    this.results = results;
  }

  interface Call {
    void run() throws Exception;
  }

  void run(int n, int rep) throws Exception {
    ManagedChannel personChannel = Services.channel(services.personTarget);
    ManagedChannel authChannel = Services.channel(services.authTarget);
    HttpClient http = Services.http();
    try {
      var person = services.authorized(PersonServiceGrpc.newBlockingStub(personChannel));
      String id = person.registerPerson(People.request(People.penguin())).getPerson().getId();
      GetPersonRequest get = GetPersonRequest.newBuilder().setId(id).build();
      ValidateTokenRequest validate = ValidateTokenRequest.newBuilder().setToken(services.token).build();
      String validateJson = "{\"token\":\"" + services.token + "\"}";
      String personPath = "/api/people/" + id;

      measure("person-spring", "rest-kept-alive", n, rep, () -> CallsInARow.expect(
          http.send(restGet(services.personRest, personPath), HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 200));
      measure("person-spring", "rest-new-connection", n, rep, () -> closing(services.personRest, "GET", personPath, null));
      measure("person-spring", "grpc-kept-alive", n, rep, () -> person.getPerson(get));
      measure("person-spring", "grpc-new-connection", n, rep, () -> onNewChannel(services.personTarget,
          c -> services.authorized(PersonServiceGrpc.newBlockingStub(c)).getPerson(get)));

      var auth = AuthServiceGrpc.newBlockingStub(authChannel);
      measure("auth-node", "rest-kept-alive", n, rep, () -> CallsInARow.expect(
          http.send(restPost(services.authRest, "/api/validate", validateJson), HttpResponse.BodyHandlers.ofByteArray()).statusCode(), 200));
      measure("auth-node", "rest-new-connection", n, rep, () -> closing(services.authRest, "POST", "/api/validate", validateJson));
      measure("auth-node", "grpc-kept-alive", n, rep, () -> auth.validateToken(validate));
      measure("auth-node", "grpc-new-connection", n, rep, () -> onNewChannel(services.authTarget,
          c -> AuthServiceGrpc.newBlockingStub(c).validateToken(validate)));
    } finally {
      personChannel.shutdownNow();
      authChannel.shutdownNow();
    }
  }

  private void measure(String service, String series, int n, int rep, Call call) throws Exception {
    for (int i = 0; i < Math.min(n, 50); i++) {
      call.run(); // warm-up: the same calls, not counted
    }
    Latencies latencies = new Latencies();
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      long t = System.nanoTime();
      call.run();
      latencies.add(System.nanoTime() - t);
    }
    results.add("s4", service, series, n, "total", "ms", rep, (System.nanoTime() - start) / 1e6);
    results.latencies("s4", service, series, n, rep, latencies);
  }

  private HttpRequest restGet(String target, String path) {
    return HttpRequest.newBuilder(Services.uri(target, path)).header("authorization", "Bearer " + services.token).GET().build();
  }

  private HttpRequest restPost(String target, String path, String json) {
    return HttpRequest.newBuilder(Services.uri(target, path))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
  }

  /** One HTTP/1.1 call on a connection of its own, which the server closes after answering. */
  private void closing(String target, String method, String path, String json) throws IOException {
    HttpURLConnection c = (HttpURLConnection) Services.uri(target, path).toURL().openConnection();
    c.setRequestMethod(method);
    c.setRequestProperty("Connection", "close");
    c.setRequestProperty("authorization", "Bearer " + services.token);
    if (json != null) {
      c.setDoOutput(true);
      c.setRequestProperty("content-type", "application/json");
      try (OutputStream out = c.getOutputStream()) {
        out.write(json.getBytes(StandardCharsets.UTF_8));
      }
    }
    CallsInARow.expect(c.getResponseCode(), 200);
    try (InputStream in = c.getInputStream()) {
      in.readAllBytes();
    }
    c.disconnect();
  }

  private static void onNewChannel(String target, java.util.function.Consumer<ManagedChannel> call) throws InterruptedException {
    ManagedChannel channel = Services.channel(target);
    try {
      call.accept(channel);
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
