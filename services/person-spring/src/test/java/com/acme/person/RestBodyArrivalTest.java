package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * A REST body has person.limits.request-arrival-time to come once the service begins to read it,
 * as a gRPC request message has: then the part of the body budget it has not used is free, and
 * what it sends after gets 408 DEADLINE_EXCEEDED, in the twin's JSON error, as does a client that
 * falls silent. Without it, two clients announcing 2 MB and
 * sending a byte now and then held a 4 MB budget for as long as they liked (Tomcat's read
 * timeout only ends a read that waits 60 s without a byte), and every other body waited.
 */
@TestPropertySource(properties = {
  "person.limits.rest-body-size=2MB",
  "person.limits.rest-bodies-in-memory=4MB",
  "person.limits.request-arrival-time=1s"
})
class RestBodyArrivalTest extends ServiceTestBase {

  /** rest-body-size: two of them fill the budget to the byte. */
  private static final long ANNOUNCED = 2L << 20;

  @Autowired MeterRegistry meters;

  @Test
  void slowSendersCannotHoldTheBodyBudget() throws Exception {
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        slow.add(RawRest.registrationStarted(restPort, token, ANNOUNCED, "{\"name\":\""));
      }
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (gauge("person.rest.bodies.held.peak") < 2 * ANNOUNCED && System.nanoTime() < until) {
        Thread.sleep(10);
      }
      assertThat(gauge("person.rest.bodies.held.peak")).as("both slow bodies admitted, the budget full")
          .isEqualTo(2 * ANNOUNCED);

      // A whole registration needs a share the slow ones hold; it gets it once their second is up,
      // though they keep sending a byte now and then.
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      CompletableFuture<HttpResponse<String>> whole = http.sendAsync(
          HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/api/people"))
              .header("Content-Type", "application/json")
              .header("Authorization", "Bearer " + token)
              .POST(HttpRequest.BodyPublishers.ofString(
                  "{\"name\":\"" + People.uniqueName("rest beside slow") + "\",\"age\":30}"))
              .build(),
          HttpResponse.BodyHandlers.ofString());
      for (int i = 0; i < 30 && !whole.isDone(); i++) {
        for (Socket socket : slow) {
          socket.getOutputStream().write('x');
          socket.getOutputStream().flush();
        }
        Thread.sleep(100);
      }
      assertThat(whole.get(1, TimeUnit.SECONDS).statusCode()).as("the whole registration, within 3 s").isEqualTo(201);

      // What a slow sender sends after its time is up is refused (a byte of its is read only
      // once the read it waits in returns: one sent after the whole registration makes sure).
      Thread.sleep(200);
      for (Socket socket : slow) {
        InputStream in = socket.getInputStream();
        if (in.available() == 0) {
          socket.getOutputStream().write('y');
          socket.getOutputStream().flush();
        }
        String answer = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
        assertThat(answer).isEqualTo("HTTP/1.1 408");
      }
    } finally {
      for (Socket socket : slow) {
        socket.close();
      }
    }
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (gauge("person.rest.bodies.held") > 0 && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    assertThat(gauge("person.rest.bodies.held")).as("held once every request is over").isZero();
  }

  @Test
  void aClientThatFallsSilentGets408() throws Exception {
    // Its read waits for a byte as long as the body has to come (server.tomcat.connection-timeout),
    // then fails: the answer is the body's lateness, not a malformed body.
    try (Socket socket = RawRest.registrationStarted(restPort, token, 100, "{\"name\":\"")) {
      long started = System.nanoTime();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 408");
      assertThat(answer).contains("\"code\":\"deadline_exceeded\"", "the body did not come within 1000 ms");
      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(8));
    }
  }

  private double gauge(String name) {
    return meters.get(name).gauge().value();
  }
}
