package com.acme.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The programs the benchmark runs beside its own clients, against the same containers: ghz
 * and h2load (independent load generators, to cross-check our figures) and the Python SDK's
 * load client. Each returns what it measured; the caller records it.
 */
final class External {
  private External() {}

  /** What a load generator reported: throughput, and latencies in ms (NaN where it gives none). */
  record Load(int ok, int failed, double seconds, double rps, double p50, double p99, double mean) {}

  static String run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(env);
    Process p = builder.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException(command.get(0) + " failed (exit " + p.exitValue() + "):\n" + out);
    }
    return out;
  }

  /**
   * ghz against a gRPC method (by server reflection), calls spread over connections, with
   * concurrency workers; rps 0 means as fast as it can. data may use ghz's template functions.
   */
  static Load ghz(String target, String method, String data, String token, int calls, int concurrency, int connections, int rps)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(
        "ghz", "--insecure", "--call", method, "-d", data, "-n", String.valueOf(calls),
        "-c", String.valueOf(concurrency), "--connections", String.valueOf(connections), "--format", "json",
        "--timeout", "30s"));
    if (token != null) {
      cmd.addAll(List.of("-m", "{\"authorization\":\"Bearer " + token + "\"}"));
    }
    if (rps > 0) {
      cmd.addAll(List.of("-r", String.valueOf(rps)));
    }
    cmd.add(target);
    JsonNode report = JsonMapper.builder().build().readTree(run(cmd, Map.of()));
    double p50 = Double.NaN, p99 = Double.NaN;
    for (JsonNode d : report.path("latencyDistribution")) {
      if (d.path("percentage").asInt() == 50) {
        p50 = d.path("latency").asDouble() / 1e6;
      } else if (d.path("percentage").asInt() == 99) {
        p99 = d.path("latency").asDouble() / 1e6;
      }
    }
    int ok = report.path("statusCodeDistribution").path("OK").asInt();
    return new Load(ok, report.path("count").asInt() - ok, report.path("total").asDouble() / 1e9,
        report.path("rps").asDouble(), p50, p99, report.path("average").asDouble() / 1e6);
  }

  private static final Pattern FINISHED = Pattern.compile("finished in ([0-9.]+)(ms|s), ([0-9.]+) req/s");
  private static final Pattern REQUESTS =
      Pattern.compile("requests: \\d+ total, \\d+ started, (\\d+) done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");
  private static final Pattern REQUEST_TIME = Pattern.compile("time for request:\\s+\\S+\\s+\\S+\\s+([0-9.]+)(us|ms|s)");

  /**
   * h2load: HTTP/1.1 (h1) or h2c with prior knowledge; body (a file, or null for GET) sent with
   * headers. For gRPC, body is a length-prefixed message and headers name application/grpc;
   * h2load counts HTTP status only, so the caller checks the call succeeds before.
   * h2load 1.52 counts no status of an HTTP/1.1 answer without a reason phrase, which Tomcat
   * (person-spring's REST twin) never sends: statusCounted false leaves the check of those
   * answers to the caller (the service's own request counter), and the Load's ok and failed
   * are then h2load's "done" and "errored + timeout".
   */
  static Load h2load(
      String url, boolean h1, boolean statusCounted, Path body, List<String> headers, int requests, int clients, int rpsPerClient)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of("h2load", "-n", String.valueOf(requests), "-c", String.valueOf(clients), "-m", "1"));
    if (h1) {
      cmd.add("--h1");
    }
    if (body != null) {
      cmd.addAll(List.of("-d", body.toString()));
    }
    if (rpsPerClient > 0) {
      cmd.add("--rps=" + rpsPerClient);
    }
    for (String h : headers) {
      cmd.addAll(List.of("-H", h));
    }
    cmd.add(url);
    String out = run(cmd, Map.of());
    Matcher f = FINISHED.matcher(out);
    Matcher r = REQUESTS.matcher(out);
    Matcher t = REQUEST_TIME.matcher(out);
    if (!f.find() || !r.find() || !t.find()) {
      throw new IllegalStateException("h2load output not understood:\n" + out);
    }
    int done = Integer.parseInt(r.group(1));
    int succeeded = Integer.parseInt(r.group(2));
    int broken = Integer.parseInt(r.group(4)) + Integer.parseInt(r.group(5));
    double seconds = Double.parseDouble(f.group(1)) / (f.group(2).equals("ms") ? 1000 : 1);
    double mean = Double.parseDouble(t.group(1)) * switch (t.group(2)) {
      case "us" -> 1e-3;
      case "ms" -> 1.0;
      default -> 1e3;
    };
    int ok = statusCounted ? succeeded : done - broken;
    int failed = statusCounted ? Integer.parseInt(r.group(3)) + broken : broken;
    return new Load(ok, failed, seconds, Double.parseDouble(f.group(3)), Double.NaN, Double.NaN, mean);
  }

  /** A gRPC message as it travels: uncompressed flag, 4-byte length, the bytes; in a file for h2load. */
  static Path grpcFrame(com.google.protobuf.Message message, Path dir, String name) throws IOException {
    byte[] bytes = message.toByteArray();
    byte[] framed = new byte[5 + bytes.length];
    framed[1] = (byte) (bytes.length >>> 24);
    framed[2] = (byte) (bytes.length >>> 16);
    framed[3] = (byte) (bytes.length >>> 8);
    framed[4] = (byte) bytes.length;
    System.arraycopy(bytes, 0, framed, 5, bytes.length);
    return Files.write(dir.resolve(name), framed);
  }
}
