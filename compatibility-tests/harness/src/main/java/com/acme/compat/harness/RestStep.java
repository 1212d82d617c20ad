package com.acme.compat.harness;

import build.buf.validate.Violations;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A case's {@code http} step: one request to the REST/JSON twin of the case's server, made by
 * the harness's own HTTP client (java.net.http, HTTP/1.1) — the twins have no SDK, so there is
 * no executor to hand it to. The answer's status and JSON body are judged as a call's response
 * is, and {@code violations} decodes the buf.validate.Violations detail of an error body the way
 * a Connect client does (base64 protobuf bytes), so the REST error shape is checked by what a
 * client library can read from it, not only by how it looks.
 */
final class RestStep {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
  private static final String VIOLATIONS = "buf.validate.Violations";

  /** host:port of each server's REST twin, by server name. */
  private final Map<String, String> targets;

  RestStep(Map<String, String> targets) {
    this.targets = targets;
  }

  /** The environment entries that name each twin, as Sessions hands them to every session. */
  static Map<String, String> targets(Map<String, String> env) {
    return Map.of("auth-node", env.get("AUTH_REST_TARGET"), "person-spring", env.get("PERSON_REST_TARGET"));
  }

  /** The admin's token from auth-node's REST twin: what a harness-run client logs in with. */
  String login(String username, String password) throws IOException, InterruptedException {
    ObjectNode body = NODES.objectNode().put("username", username).put("password", password);
    HttpResponse<String> response = HTTP.send(
        HttpRequest.newBuilder(URI.create("http://" + targets.get("auth-node") + "/api/login"))
            .timeout(TIMEOUT)
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("the admin's login at the REST twin failed: " + response.statusCode() + " " + response.body());
    }
    return JSON.readTree(response.body()).path("token").asString();
  }

  /** Runs the step; result gets {status, body}. Returns the differences from what it expects. */
  String run(CaseLibrary.Spec spec, JsonNode step, Values.Scope scope, String auth, ObjectNode result)
      throws IOException, InterruptedException {
    String[] line = Values.eval(step.get("http"), scope).asString().split(" ", 2);
    if (line.length != 2 || !line[1].startsWith("/")) {
      throw new IllegalArgumentException("http must be \"METHOD /path\", not " + step.get("http"));
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + targets.get(spec.server()) + line[1]))
        .timeout(TIMEOUT);
    String body = null;
    if (step.has("body")) {
      body = Values.eval(step.get("body"), scope).toString();
      request.header("content-type", "application/json");
    } else if (step.has("raw")) {
      body = Values.eval(step.get("raw"), scope).asString();
    }
    for (var header : step.path("headers").properties()) {
      request.setHeader(header.getKey(), Values.eval(header.getValue(), scope).asString());
    }
    if (!auth.equals("none")) {
      request.setHeader("authorization", auth);
    }
    request.method(line[0], body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());

    JsonNode answer;
    try {
      answer = response.body().isEmpty() ? NODES.missingNode() : JSON.readTree(response.body());
    } catch (JacksonException notJson) {
      answer = NODES.stringNode(response.body());
    }
    result.put("status", response.statusCode());
    result.set("body", answer);

    JsonNode expect = Values.eval(step.path("expect"), scope);
    List<String> differences = new ArrayList<>();
    if (expect.has("status") && expect.get("status").asInt() != response.statusCode()) {
      differences.add("expected HTTP " + expect.get("status").asInt() + ", got " + response.statusCode() + " " + response.body());
    }
    if (expect.has("body")) {
      Expect.differences(expect.get("body"), answer).forEach(d -> differences.add("body " + d));
    }
    if (expect.has("violations")) {
      violations(answer, expect.get("violations"), differences);
    }
    return String.join("; ", differences);
  }

  /** The error body's one buf.validate.Violations detail, decoded from its bytes: path/rule_id each. */
  private static void violations(JsonNode body, JsonNode expected, List<String> differences) {
    List<String> names = new ArrayList<>();
    int found = 0;
    for (JsonNode detail : body.path("details")) {
      if (!detail.path("type").asString("").equals(VIOLATIONS)) {
        continue;
      }
      found++;
      try {
        // Connect writes the bytes as standard base64 without padding; the decoder takes both.
        Violations v = Violations.parseFrom(Base64.getDecoder().decode(detail.path("value").asString("")));
        v.getViolationsList().forEach(one -> names.add(
            String.join(".", one.getField().getElementsList().stream().map(e -> e.getFieldName()).toList()) + "/" + one.getRuleId()));
      } catch (IllegalArgumentException | InvalidProtocolBufferException e) {
        differences.add("the " + VIOLATIONS + " detail's value does not decode: " + e.getMessage());
      }
    }
    if (found != 1) {
      differences.add("expected one " + VIOLATIONS + " detail in the body's details, got " + found);
    }
    expected.forEach(v -> {
      if (!names.contains(v.asString())) {
        differences.add("no violation " + v.asString() + " among " + names);
      }
    });
  }
}
