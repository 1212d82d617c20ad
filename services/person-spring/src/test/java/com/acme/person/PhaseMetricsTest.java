package com.acme.person;

import static org.assertj.core.api.Assertions.assertThat;

import com.acme.person.v1.GetPersonRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every phase of a gRPC call is timed and served at /actuator/prometheus, where the benchmarks
 * read it (scenario 6): a RegisterPerson and a GetPerson add one to each phase's count.
 */
class PhaseMetricsTest extends ServiceTestBase {

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void eachPhaseOfACallIsCountedAtThePrometheusEndpoint() throws Exception {
    String before = scrape();
    String id = blocking().registerPerson(People.register(People.person("Phase Counted", 30))).getPerson().getId();
    blocking().getPerson(GetPersonRequest.newBuilder().setId(id).build());
    String after = scrape();
    for (String phase : new String[] {"decode", "auth", "validate", "map", "store", "encode", "total"}) {
      for (String method : new String[] {"RegisterPerson", "GetPerson"}) {
        assertThat(count(after, method, phase) - count(before, method, phase)).as(method + " " + phase).isEqualTo(
            method.equals("RegisterPerson") && phase.equals("map") ? 2 : 1); // mapped in, and back out
      }
    }
  }

  private String scrape() throws Exception {
    HttpResponse<String> r = http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + restPort + "/actuator/prometheus")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  private static long count(String scrape, String method, String phase) {
    Matcher m = Pattern.compile("person_call_phase_seconds_count\\{[^}]*method=\"" + method + "\",phase=\"" + phase + "\"[^}]*} (\\S+)")
        .matcher(scrape);
    return m.find() ? (long) Double.parseDouble(m.group(1)) : 0;
  }
}
