package com.acme.person;

import static com.acme.person.People.person;
import static com.acme.person.People.register;
import static com.acme.person.People.uniqueName;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Zipkin that is down (nothing listens at its endpoint): every call still succeeds, and the
 * spans it could not send are counted in person_trace_spans_dropped_total.
 */
class TracingBackendDownTest extends ServiceTestBase {

  @DynamicPropertySource
  static void zipkinDown(DynamicPropertyRegistry registry) {
    registry.add("person.tracing.zipkin-endpoint", () -> "http://127.0.0.1:" + closedPort() + "/api/v2/spans");
  }

  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void callsSucceedAndTheDroppedSpansAreCounted() throws Exception {
    double before = dropped();
    for (int i = 0; i < 20; i++) {
      assertThat(blocking().registerPerson(register(person(uniqueName("down"), 30))).getPerson().getId()).isNotBlank();
    }
    // Each call's server span and its phases', once the reporter's message to Zipkin fails.
    Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> dropped() >= before + 20 * 2);
  }

  private double dropped() throws Exception {
    String scrape = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/actuator/prometheus")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher m = Pattern.compile("(?m)^person_trace_spans_dropped_total(?:\\{[^}]*\\})? (\\S+)$").matcher(scrape);
    assertThat(m.find()).as("person_trace_spans_dropped_total in " + scrape.length() + " bytes of /actuator/prometheus").isTrue();
    return Double.parseDouble(m.group(1));
  }
}
