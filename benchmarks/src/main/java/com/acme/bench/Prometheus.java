package com.acme.bench;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * person-spring's metrics at /actuator/prometheus, as one snapshot: the value of every series
 * by its name and labels, exactly as the text format writes them.
 */
final class Prometheus {
  // Label values are quoted and may hold "}" (uri="/api/people/{id}").
  private static final Pattern SAMPLE = Pattern.compile("(?m)^([a-zA-Z_:][\\w:]*)(\\{(?:[^}\"]|\"(?:[^\"\\\\]|\\\\.)*\")*})? (\\S+)$");

  private final Map<String, Double> values = new HashMap<>();

  static Prometheus scrape(String restTarget) throws Exception {
    HttpResponse<String> r = Services.http().send(
        HttpRequest.newBuilder(Services.uri(restTarget, "/actuator/prometheus")).build(), HttpResponse.BodyHandlers.ofString());
    CallsInARow.expect(r.statusCode(), 200);
    Prometheus p = new Prometheus();
    Matcher m = SAMPLE.matcher(r.body());
    while (m.find()) {
      p.values.merge(m.group(1) + (m.group(2) == null ? "" : m.group(2)), Double.parseDouble(m.group(3)), Double::sum);
    }
    return p;
  }

  /** The sum of name's series that carry every label given (label="value" pairs). */
  double sum(String name, String... labels) {
    double total = 0;
    boolean found = false;
    outer:
    for (var e : values.entrySet()) {
      String key = e.getKey();
      if (!key.equals(name) && !key.startsWith(name + "{")) {
        continue;
      }
      for (String label : labels) {
        if (!key.contains(label)) {
          continue outer;
        }
      }
      total += e.getValue();
      found = true;
    }
    return found ? total : 0;
  }

  boolean has(String name, String... labels) {
    return values.keySet().stream().anyMatch(k -> (k.equals(name) || k.startsWith(name + "{"))
        && java.util.Arrays.stream(labels).allMatch(k::contains));
  }
}
