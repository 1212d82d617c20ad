package com.acme.compat.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A server that features.yaml says sends no CORS headers ("no-cors") must still send none:
 * the harness asks it, as Chromium would, whether the browser client's page may call it. Once
 * it says yes, the declaration is stale and fails the run, like an expected failure that
 * passes — the browser's column for that server must then run.
 */
final class NoCors {
  private NoCors() {}

  static List<Case> check(Config config, Topology topology) {
    List<Case> cases = new ArrayList<>();
    boolean browser = config.clients().values().stream().anyMatch(Config.Client::browser);
    Config.Server auth = config.servers().get("auth-node");
    if (!browser || auth == null || auth.noCors() == null) {
      return cases;
    }
    String answer;
    try {
      answer = preflight(topology.authTarget(), topology.pageOrigin());
    } catch (IOException e) {
      answer = "no answer to the preflight: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      answer = "interrupted";
    }
    boolean stillNone = answer.isEmpty();
    cases.add(new Case("browser", "auth-node", "cors", "declared-no-cors", stillNone,
        stillNone ? "" : "features.yaml says auth-node sends no CORS headers, but it allows the page's origin now ("
            + answer + "): remove no-cors, so the browser's auth-node column runs", 0));
    return cases;
  }

  /** The Access-Control-Allow-Origin of a preflight for a Connect call from origin; empty if none. */
  private static String preflight(String target, String origin) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target + "/acme.auth.v1.AuthService/Login"))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
        .header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "content-type,connect-protocol-version")
        .timeout(Duration.ofSeconds(10))
        .build();
    return client.send(request, HttpResponse.BodyHandlers.discarding()).headers()
        .firstValue("Access-Control-Allow-Origin").orElse("");
  }
}
