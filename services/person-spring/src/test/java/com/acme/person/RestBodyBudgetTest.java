package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * The REST twin's body budget (person.limits.rest-bodies-in-memory, rest/RestBodyFilter): many
 * large registrations at once all succeed, and the body bytes the service holds being read or
 * served never exceed the budget — the requests beyond it wait with their bodies unread. Without
 * it, 100 bodies of 1 MB at once filled person-spring's heap (benchmark scenario 3).
 */
@TestPropertySource(properties = {
  "person.limits.rest-body-size=2MB",
  "person.limits.rest-bodies-in-memory=4MB"
})
class RestBodyBudgetTest extends ServiceTestBase {

  private static final long BUDGET = 4L << 20;

  @Autowired MeterRegistry meters;

  @Test
  void manyLargeBodiesAtOnceAllSucceedWithinTheBudget() throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String hobby = "\"" + "h".repeat(2000) + "\"";
    String hobbies = String.join(",", java.util.Collections.nCopies(500, hobby)); // about 1 MB
    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      String body = "{\"name\":\"" + People.uniqueName("rest large") + "\",\"age\":30,\"hobbies\":[" + hobbies + "]}";
      calls.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/api/people"))
          .header("Content-Type", "application/json")
          .header("Authorization", "Bearer " + token)
          .POST(HttpRequest.BodyPublishers.ofString(body))
          .build(), HttpResponse.BodyHandlers.ofString()));
    }
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      assertThat(call.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(201);
    }
    assertThat(gauge("person.rest.bodies.held.peak"))
        .as("body bytes held at once, at most (the budget: %d)", BUDGET)
        .isGreaterThan(2 << 20) // more than one body at a time: the budget is shared, not a queue of one
        .isLessThanOrEqualTo(BUDGET);
    assertThat(gauge("person.rest.bodies.held")).as("held once every request is answered").isZero();
  }

  private double gauge(String name) {
    return meters.get(name).gauge().value();
  }
}
