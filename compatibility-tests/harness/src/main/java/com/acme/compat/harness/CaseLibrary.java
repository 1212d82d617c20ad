package com.acme.compat.harness;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The cases of compatibility-tests/cases/*.yaml, each written once for every client (README.md,
 * "Cases"). Read strictly: an unknown key in a case or a step is an error, so a typo cannot turn
 * an expectation into a silent no-op.
 */
final class CaseLibrary {
  static final Set<String> CASE_KEYS = Set.of("requires", "steps", "database");
  static final Set<String> CALL_KEYS = Set.of(
      "call", "auth", "request", "requests", "schema", "timeout_ms", "end", "cancel_after_ms",
      "exchange", "expect", "save", "times", "poll", "let", "traceparent");
  static final Set<String> CHECK_KEYS = Set.of("check", "is");
  static final Set<String> TRACE_KEYS = Set.of("trace", "spans");
  static final Set<String> HTTP_KEYS = Set.of("http", "auth", "headers", "body", "raw", "expect", "save");
  static final Set<String> HTTP_EXPECT_KEYS = Set.of("status", "body", "violations");
  static final Set<String> EXPECT_KEYS = Set.of(
      "code", "response", "responses", "violations", "rules", "retry_delay", "elapsed_ms", "request_bytes");

  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** One case of one server: its steps and the rows it must leave in person-spring's database. */
  record Spec(String server, String name, List<String> requires, ObjectNode defaults, List<JsonNode> steps,
      Map<String, JsonNode> database) {}

  private CaseLibrary() {}

  static List<Spec> load(Path dir, Config config) throws IOException {
    List<Spec> specs = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.yaml")) {
      List<Path> sorted = new ArrayList<>();
      files.forEach(sorted::add);
      sorted.sort(null);
      for (Path file : sorted) {
        specs.addAll(loadFile(file, config));
      }
    }
    return specs;
  }

  private static List<Spec> loadFile(Path file, Config config) throws IOException {
    Object yaml;
    try (Reader in = Files.newBufferedReader(file)) {
      yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    }
    JsonNode root = JSON.valueToTree(yaml);
    String where = file.getFileName().toString();
    keys(root, where, Set.of("server", "defaults", "cases"));
    String server = root.path("server").asString("");
    if (!config.servers().containsKey(server)) {
      throw new IllegalArgumentException(where + ": server " + server + " is not in features.yaml");
    }
    ObjectNode defaults = root.has("defaults") ? (ObjectNode) root.get("defaults") : JSON.createObjectNode();
    List<Spec> specs = new ArrayList<>();
    for (var entry : root.path("cases").properties()) {
      String name = entry.getKey();
      JsonNode c = entry.getValue();
      String at = where + ": case " + name;
      keys(c, at, CASE_KEYS);
      List<String> requires = new ArrayList<>();
      c.path("requires").forEach(r -> requires.add(r.asString()));
      for (String r : requires) {
        if (!Config.CAPABILITIES.contains(r)) {
          throw new IllegalArgumentException(at + " requires unknown capability " + r);
        }
      }
      List<JsonNode> steps = new ArrayList<>();
      int n = 0;
      for (JsonNode step : c.path("steps")) {
        n++;
        if (step.has("call")) {
          keys(step, at + ", step " + n, CALL_KEYS);
          if (step.has("expect")) {
            keys(step.get("expect"), at + ", step " + n + " expect", EXPECT_KEYS);
          }
        } else if (step.has("http")) {
          keys(step, at + ", step " + n, HTTP_KEYS);
          if (step.has("expect")) {
            keys(step.get("expect"), at + ", step " + n + " expect", HTTP_EXPECT_KEYS);
          }
        } else if (step.has("trace")) {
          keys(step, at + ", step " + n, TRACE_KEYS);
          if (!requires.contains("trace-context")) {
            throw new IllegalArgumentException(at + ", step " + n + ": a trace step needs requires: [trace-context]");
          }
          if (!step.path("spans").isObject() || step.get("spans").isEmpty()) {
            throw new IllegalArgumentException(at + ", step " + n + ": spans must map a label to each expected span");
          }
          for (var span : step.get("spans").properties()) {
            keys(span.getValue(), at + ", step " + n + " span " + span.getKey(), TraceStep.SPAN_KEYS);
          }
        } else {
          keys(step, at + ", step " + n, CHECK_KEYS);
        }
        steps.add(step);
      }
      if (steps.isEmpty()) {
        throw new IllegalArgumentException(at + " has no steps");
      }
      Map<String, JsonNode> database = new LinkedHashMap<>();
      c.path("database").properties().forEach(d -> {
        keys(d.getValue(), at + ", database " + d.getKey(), Set.of("name_contains", "rows"));
        database.put(d.getKey(), d.getValue());
      });
      specs.add(new Spec(server, name, List.copyOf(requires), defaults, List.copyOf(steps), database));
    }
    return specs;
  }

  private static void keys(JsonNode node, String where, Set<String> allowed) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(where + " must be a mapping");
    }
    Set<String> unknown = new LinkedHashSet<>(node.propertyNames());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(where + ": unknown keys " + unknown + "; known: " + allowed);
    }
  }
}
