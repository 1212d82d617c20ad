package com.acme.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every figure one run measured, one row each, written as results.json for
 * benchmarks/report/report.py, which takes the median, min and max over the repetitions. Rows
 * are raw: nothing here averages or compares, so the report is the only place that does.
 */
final class Results {

  /**
   * One figure. scenario: s1…s6; service: person-spring or auth-node; series: what was compared
   * (rest, grpc-unary, …); x: the scenario's variable (calls, payload size); rep: 1…reps.
   */
  record Row(String scenario, String service, String series, String x, String metric, String unit, int rep, double value) {}

  private final List<Row> rows = new ArrayList<>();
  private final Map<String, Object> meta = new LinkedHashMap<>();
  private final List<String> notes = new ArrayList<>();

  synchronized void add(String scenario, String service, String series, Object x, String metric, String unit, int rep, double value) {
    rows.add(new Row(scenario, service, series, String.valueOf(x), metric, unit, rep, value));
  }

  /** Latency figures of one measurement, in milliseconds. */
  void latencies(String scenario, String service, String series, Object x, int rep, Latencies l) {
    add(scenario, service, series, x, "p50", "ms", rep, l.percentile(50));
    add(scenario, service, series, x, "p99", "ms", rep, l.percentile(99));
    add(scenario, service, series, x, "max", "ms", rep, l.max());
  }

  void meta(String key, Object value) {
    meta.put(key, value);
  }

  /** Something the reader must know about how a figure was made (printed under the tables). */
  void note(String text) {
    notes.add(text);
  }

  int size() {
    return rows.size();
  }

  void write(Path file) throws IOException {
    ObjectMapper json = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("meta", meta);
    root.put("notes", notes);
    root.put("rows", rows);
    Files.writeString(file, json.writeValueAsString(root));
  }
}
