package com.acme.compat.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs one client in a golden mode (clients/&lt;lang&gt;/run.sh golden-encode|golden-decode) and
 * reads its JSON lines (compatibility-tests/README.md, "The golden wire vectors"): one
 * {"feature","result","detail","ms"} line per requested feature. Anything the client leaves
 * unreported — it crashed, hung or skipped one — is a failure with the reason, never a silent gap.
 */
final class GoldenRun {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final Config.Client client;
  private final Path logDir;
  private final Duration timeout;

  GoldenRun(Config.Client client, Path logDir, Duration timeout) {
    this.client = client;
    this.logDir = logDir;
    this.timeout = timeout;
  }

  /** Runs the client with args, asking for features; one Case per requested feature. */
  List<Case> run(
      String server, String protocol, List<String> features, List<String> args, Map<String, String> env)
      throws IOException, InterruptedException {
    Path log = logDir.resolve(client.name() + "-" + server + "-" + protocol + ".log");
    List<String> command = new ArrayList<>();
    command.add(client.dir().resolve("run.sh").toString());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(env);
    long start = System.nanoTime();
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      return features.stream()
          .map(f -> new Case(client.name(), server, protocol, f, false, "the client did not start: " + e.getMessage(), 0))
          .toList();
    }

    Map<String, Case> reported = new LinkedHashMap<>();
    // Written by the reader thread and, on a timeout, by this one.
    List<String> problems = Collections.synchronizedList(new ArrayList<>());
    Thread reader =
        new Thread(
                () -> {
                  try (BufferedReader out =
                      new BufferedReader(
                          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = out.readLine()) != null; ) {
                      accept(line, server, protocol, features, reported, problems);
                    }
                  } catch (IOException e) {
                    problems.add("reading the client's output failed: " + e.getMessage());
                  }
                });
    reader.start();
    boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (!finished) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
      problems.add("timed out after " + timeout.toSeconds() + " s");
    }
    reader.join();
    long ms = (System.nanoTime() - start) / 1_000_000;
    String why =
        (finished ? "client exited " + process.exitValue() : "client killed")
            + (problems.isEmpty() ? "" : ": " + String.join("; ", problems))
            + " (log: " + log + ")";

    List<Case> cases = new ArrayList<>();
    for (String feature : features) {
      Case c = reported.get(feature);
      cases.add(c != null ? c : new Case(client.name(), server, protocol, feature, false, "not reported; " + why, ms));
    }
    if (finished && process.exitValue() != 0 && reported.size() == features.size()) {
      // Every feature reported but a non-zero exit: the contract says that is a crash.
      cases.add(new Case(client.name(), server, protocol, "client-exit", false, why, ms));
    }
    for (String problem : problems) {
      System.err.println("  " + client.name() + " " + server + " " + protocol + ": " + problem);
    }
    return cases;
  }

  private void accept(
      String line,
      String server,
      String protocol,
      List<String> features,
      Map<String, Case> reported,
      List<String> problems) {
    if (line.isBlank()) {
      return;
    }
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (RuntimeException e) {
      problems.add("not a JSON line on stdout: " + abbreviate(line));
      return;
    }
    String feature = node.path("feature").asString("");
    String result = node.path("result").asString("");
    if (!features.contains(feature)) {
      problems.add("reported a feature it was not asked for: " + abbreviate(line));
      return;
    }
    if (!result.equals("pass") && !result.equals("fail")) {
      problems.add("result must be pass or fail: " + abbreviate(line));
      return;
    }
    if (reported.containsKey(feature)) {
      problems.add("reported " + feature + " twice");
      reported.put(feature, new Case(client.name(), server, protocol, feature, false, "reported twice", 0));
      return;
    }
    reported.put(
        feature,
        new Case(
            client.name(),
            server,
            protocol,
            feature,
            result.equals("pass"),
            node.path("detail").asString(""),
            node.path("ms").asLong(0)));
  }

  private static String abbreviate(String s) {
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }
}
