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
 * A server that features.yaml says no page can call itself ("no-browser") must still be out of
 * a page's reach: the harness asks it, as Chromium would — HTTP/1.1, the page's origin, a
 * preflight for a Connect call — and once it answers with the page's origin, the declaration
 * is stale and fails the run, like an expected failure that passes. The browser's column for
 * that server must then run against it directly.
 */
final class NoBrowser {
  private NoBrowser() {}

  static List<Case> check(Config config, Topology topology) {
    List<Case> cases = new ArrayList<>();
    if (config.clients().values().stream().noneMatch(Config.Client::browser)) {
      return cases;
    }
    for (Config.Server server : config.servers().values()) {
      if (server.noBrowser() == null) {
        continue;
      }
      String target = server.name().equals("auth-node") ? topology.authTarget() : topology.personTarget();
      String service = server.name().equals("auth-node") ? "acme.auth.v1.AuthService/Login" : "acme.person.v1.PersonService/GetPerson";
      String answer;
      try {
        answer = preflight(target, service, topology.pageOrigin());
      } catch (IOException e) {
        answer = "";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answer = "";
      }
      boolean stillOutOfReach = !answer.equals(topology.pageOrigin());
      cases.add(new Case("browser", server.name(), "direct", "no-browser-still-holds", stillOutOfReach,
          stillOutOfReach ? "" : "features.yaml says no page can call " + server.name() + " (" + server.noBrowser()
              + "), but it answers the page's preflight now: remove no-browser and its web-proxy, so the browser calls it directly", 0));
    }
    return cases;
  }

  /** The Access-Control-Allow-Origin a page's preflight gets over HTTP/1.1; empty if none. */
  private static String preflight(String target, String method, String origin) throws IOException, InterruptedException {
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + target + "/" + method))
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
