package com.acme.compat.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A case's {@code trace} step (README.md, "Cases"): reads one trace from the topology's Zipkin
 * (GET /api/v2/trace/ID) and judges its spans. Each expected span, by label, must be exactly one
 * span of the trace with that service, kind and name (Zipkin keeps both names in lower case, so
 * they are compared so), whose parent is the span of another label or the id given, and whose
 * tags include those given. The services send spans in the background, so the step reads the
 * trace again until it passes or {@link #WAIT} is over; then it fails with what was missing and
 * the spans that were there.
 */
final class TraceStep {
  /** The environment entry (Sessions) that holds host:port of Zipkin's HTTP API. */
  static final String ZIPKIN_TARGET = "ZIPKIN_TARGET";
  static final java.util.Set<String> SPAN_KEYS = java.util.Set.of("service", "kind", "name", "parent", "tags");
  /**
   * How long spans may take to reach Zipkin: each service flushes its spans within a second or
   * two of the call (auth-node's flush interval, person-spring's reporter), and the machine is
   * a loaded one of 2 cores.
   */
  static final Duration WAIT = Duration.ofSeconds(30);
  private static final Duration POLL = Duration.ofMillis(250);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private TraceStep() {}

  /** Runs the step (already evaluated: trace id and spans); empty when the trace is as expected. */
  static String run(String zipkinTarget, String traceId, JsonNode spans) throws IOException, InterruptedException {
    if (zipkinTarget == null || zipkinTarget.isEmpty()) {
      return "the topology runs no trace backend (features.yaml tracing)";
    }
    URI uri = URI.create("http://" + zipkinTarget + "/api/v2/trace/" + traceId);
    long until = System.nanoTime() + WAIT.toNanos();
    List<String> differences;
    JsonNode got;
    do {
      HttpResponse<String> res = HTTP.send(
          HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      // 404: no span of the trace has arrived yet.
      got = res.statusCode() == 200 ? JSON.readTree(res.body()) : JSON.createArrayNode();
      differences = judge(traceId, spans, got);
      if (differences.isEmpty()) {
        return "";
      }
      Thread.sleep(POLL.toMillis());
    } while (System.nanoTime() < until);
    return "trace " + traceId + " after " + WAIT.toSeconds() + " s: " + String.join("; ", differences)
        + " (spans: " + summary(got) + ")";
  }

  /** What differs between the expected spans (label → span) and Zipkin's spans of the trace. */
  static List<String> judge(String traceId, JsonNode expected, JsonNode spans) {
    List<String> differences = new ArrayList<>();
    for (JsonNode span : spans) {
      if (!span.path("traceId").asString().equals(traceId)) {
        differences.add("span " + span.path("id").asString() + " has trace id " + span.path("traceId").asString());
      }
    }
    Map<String, JsonNode> found = new LinkedHashMap<>();
    for (var e : expected.properties()) {
      JsonNode want = e.getValue();
      List<JsonNode> matches = new ArrayList<>();
      for (JsonNode span : spans) {
        if (span.path("localEndpoint").path("serviceName").asString().equalsIgnoreCase(want.path("service").asString())
            && span.path("kind").asString().equals(want.path("kind").asString())
            && span.path("name").asString().equalsIgnoreCase(want.path("name").asString())) {
          matches.add(span);
        }
      }
      if (matches.size() != 1) {
        differences.add(matches.size() + " spans " + e.getKey() + " (" + want.path("service").asString() + " "
            + want.path("kind").asString() + " " + want.path("name").asString() + "), expected one");
      } else {
        found.put(e.getKey(), matches.get(0));
      }
    }
    for (var e : found.entrySet()) {
      JsonNode want = expected.get(e.getKey());
      JsonNode span = e.getValue();
      if (want.has("parent")) {
        String parent = want.get("parent").asString();
        JsonNode parentSpan = found.get(parent);
        String parentId = expected.has(parent) ? (parentSpan == null ? null : parentSpan.path("id").asString()) : parent;
        String actual = span.path("parentId").asString("");
        if (parentId != null && !parentId.equals(actual)) {
          differences.add(e.getKey() + "'s parent is " + (actual.isEmpty() ? "none" : actual) + ", expected "
              + (expected.has(parent) ? parent + " (" + parentId + ")" : parentId));
        }
      }
      for (var tag : want.path("tags").properties()) {
        JsonNode actual = span.path("tags").get(tag.getKey());
        String wanted = tag.getValue().isString() ? tag.getValue().asString() : tag.getValue().toString();
        if (actual == null || !actual.asString().equals(wanted)) {
          differences.add(e.getKey() + "'s tag " + tag.getKey() + " is " + (actual == null ? "absent" : actual.asString())
              + ", expected " + wanted);
        }
      }
    }
    return differences;
  }

  /** Each span as "service kind name id←parent status", for a failure's message. */
  private static String summary(JsonNode spans) {
    List<String> out = new ArrayList<>();
    for (JsonNode s : spans) {
      out.add(s.path("localEndpoint").path("serviceName").asString("?") + " " + s.path("kind").asString("LOCAL") + " "
          + s.path("name").asString() + " " + s.path("id").asString() + "←" + s.path("parentId").asString("none")
          + " " + s.path("tags").path("rpc.grpc.status_code").asString(""));
    }
    return out.isEmpty() ? "none" : String.join(", ", out);
  }
}
