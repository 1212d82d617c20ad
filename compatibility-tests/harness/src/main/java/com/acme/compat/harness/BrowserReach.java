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
 * A server that browser clients call directly (no web proxy in features.yaml) must answer a
 * page the way Chromium asks over http://: HTTP/1.1, the page's origin, a preflight for a
 * Connect call. The browser's own cases against it would fail too if it did not, but with a
 * browser's opaque network error; this case names the cause (the server's port no longer
 * answering HTTP/1.1, or its CORS no longer allowing the page).
 */
final class BrowserReach {
  private BrowserReach() {}

  static List<Case> check(Config config, Endpoints topology) {
    List<Case> cases = new ArrayList<>();
    List<Config.Client> browsers = config.clients().values().stream().filter(Config.Client::browser).toList();
    for (Config.Server server : config.servers().values()) {
      boolean direct = server.webProxy() == null
          && browsers.stream().anyMatch(b -> !config.protocolsOf(b, server).isEmpty());
      if (!direct) {
        continue;
      }
      String target = server.name().equals("auth-node") ? topology.authTarget() : topology.personTarget();
      String service = server.name().equals("auth-node") ? "acme.auth.v1.AuthService/Login" : "acme.person.v1.PersonService/GetPerson";
      String answer;
      try {
        answer = preflight(target, service, topology.pageOrigin());
      } catch (IOException e) {
        answer = "no answer: " + e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answer = "interrupted";
      }
      boolean reached = answer.equals(topology.pageOrigin());
      cases.add(new Case("browser", server.name(), "direct", "page-preflight-over-http1", reached,
          reached ? "" : server.name() + " is called by pages directly (features.yaml gives it no web-proxy), but a page's"
              + " HTTP/1.1 preflight from " + topology.pageOrigin() + " got Access-Control-Allow-Origin \"" + answer + "\"", 0));
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
