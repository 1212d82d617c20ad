package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;

/**
 * The verdicts and the printed matrix. A case is pass, FAIL, expected (failed and listed in
 * expected-failures.yaml) or XPASS (listed but passed: the list is stale and the run fails). An
 * entry of expected-failures.yaml that names no case of this run is stale too.
 */
final class Matrix {

  enum Verdict {
    PASS("pass"),
    FAIL("FAIL"),
    EXPECTED("expected"),
    XPASS("XPASS");

    final String label;

    Verdict(String label) {
      this.label = label;
    }
  }

  record Row(Case c, Verdict verdict, String reason) {}

  private final List<Row> rows = new ArrayList<>();
  private final List<String> stale = new ArrayList<>();

  /** Cases a released client's schema could not express (Schemas.NotInRelease): no verdict. */
  private final List<String> skipped;

  /** Cases and faults the topology cannot offer (features.yaml topologies), each "key: reason". */
  private final List<String> notApplicable;

  Matrix(List<Case> cases, ExpectedFailures expected) {
    this(cases, expected, List.of());
  }

  Matrix(List<Case> cases, ExpectedFailures expected, List<String> skipped) {
    this(cases, expected, skipped, List.of());
  }

  Matrix(List<Case> cases, ExpectedFailures expected, List<String> skipped, List<String> notApplicable) {
    this.skipped = skipped;
    this.notApplicable = notApplicable;
    Set<String> keys = new LinkedHashSet<>();
    for (Case c : cases) {
      keys.add(c.key());
      boolean listed = expected.lists(c.key());
      Verdict v =
          c.passed() ? (listed ? Verdict.XPASS : Verdict.PASS) : (listed ? Verdict.EXPECTED : Verdict.FAIL);
      rows.add(new Row(c, v, expected.reason(c.key())));
    }
    for (String key : expected.reasons().keySet()) {
      if (!keys.contains(key)) {
        stale.add(key);
      }
    }
  }

  boolean ok() {
    return stale.isEmpty() && rows.stream().noneMatch(r -> r.verdict() == Verdict.FAIL || r.verdict() == Verdict.XPASS);
  }

  Map<Verdict, Integer> totals() {
    Map<Verdict, Integer> totals = new LinkedHashMap<>();
    for (Verdict v : Verdict.values()) {
      totals.put(v, 0);
    }
    rows.forEach(r -> totals.merge(r.verdict(), 1, Integer::sum));
    return totals;
  }

  /** One table per server (and for golden and faults): rows client × protocol, columns features. */
  String markdown(String title) {
    StringBuilder out = new StringBuilder("# " + title + "\n");
    Map<String, List<Row>> byServer = new LinkedHashMap<>();
    rows.forEach(r -> byServer.computeIfAbsent(r.c().server(), k -> new ArrayList<>()).add(r));
    byServer.forEach(
        (server, serverRows) -> {
          Set<String> features = new LinkedHashSet<>();
          Map<String, Map<String, Row>> grid = new LinkedHashMap<>();
          for (Row r : serverRows) {
            features.add(r.c().feature());
            grid.computeIfAbsent(r.c().client() + " | " + r.c().protocol(), k -> new LinkedHashMap<>())
                .put(r.c().feature(), r);
          }
          out.append("\n## ").append(server).append("\n\n| client | protocol |");
          features.forEach(f -> out.append(' ').append(f).append(" |"));
          out.append("\n|---|---|");
          features.forEach(f -> out.append("---|"));
          grid.forEach(
              (row, cells) -> {
                out.append("\n| ").append(row).append(" |");
                for (String f : features) {
                  Row cell = cells.get(f);
                  out.append(' ').append(cell == null ? "—" : cell.verdict().label).append(" |");
                }
              });
          out.append('\n');
        });
    Map<Verdict, Integer> totals = totals();
    out.append("\n").append(rows.size()).append(" cases: ");
    totals.forEach((v, n) -> out.append(n).append(' ').append(v.label).append(", "));
    out.setLength(out.length() - 2);
    out.append("\n");
    out.append(perClient());
    List<Row> notable = rows.stream().filter(r -> r.verdict() != Verdict.PASS).toList();
    if (!notable.isEmpty() || !stale.isEmpty()) {
      out.append("\n## Not passing\n\n");
      for (Row r : notable) {
        out.append("- ").append(r.verdict().label).append(" `").append(r.c().key()).append("`: ").append(r.c().detail());
        if (r.reason() != null) {
          out.append(" — listed: ").append(r.reason());
        }
        out.append('\n');
      }
      for (String key : stale) {
        out.append("- STALE `").append(key).append("`: listed in expected-failures.yaml but no such case ran\n");
      }
    }
    if (!skipped.isEmpty()) {
      out.append("\n## Not run: what the client cannot do, or its release lacks (shown as —)\n\n");
      skipped.forEach(k -> out.append("- `").append(k).append("`\n"));
    }
    if (!notApplicable.isEmpty()) {
      out.append("\n## Not applicable on this topology (features.yaml topologies)\n\n");
      notApplicable.forEach(k -> out.append("- `").append(k).append("`\n"));
    }
    List<Row> facts = rows.stream().filter(r -> r.c().server().equals("faults") && !r.c().detail().isEmpty()).toList();
    if (!facts.isEmpty()) {
      out.append("\n## Fault figures\n\n");
      facts.forEach(r -> out.append("- `").append(r.c().feature()).append("`: ").append(r.c().detail()).append('\n'));
    }
    return out.toString();
  }

  /**
   * Per client: the cases that ran and their verdicts, and those that did not run — what the
   * client cannot do, and what the topology cannot offer — so nothing is left out unseen.
   */
  String perClient() {
    Map<String, int[]> counts = new LinkedHashMap<>();
    // ran, pass, expected, FAIL or XPASS, cannot, not applicable
    for (Row r : rows) {
      int[] c = counts.computeIfAbsent(r.c().client(), k -> new int[6]);
      c[0]++;
      switch (r.verdict()) {
        case PASS -> c[1]++;
        case EXPECTED -> c[2]++;
        default -> c[3]++;
      }
    }
    skipped.forEach(k -> counts.computeIfAbsent(client(k), x -> new int[6])[4]++);
    notApplicable.forEach(k -> counts.computeIfAbsent(client(k), x -> new int[6])[5]++);
    StringBuilder out = new StringBuilder("\n| client | ran | pass | expected | FAIL/XPASS | not run (cannot) | not applicable |\n");
    out.append("|---|---|---|---|---|---|---|\n");
    counts.forEach((client, c) -> {
      out.append("| ").append(client);
      for (int n : c) {
        out.append(" | ").append(n);
      }
      out.append(" |\n");
    });
    return out.toString();
  }

  private static String client(String key) {
    return key.substring(0, Math.max(0, key.indexOf('/')));
  }

  void write(Path dir, String title) throws IOException {
    Files.writeString(dir.resolve("matrix.md"), markdown(title));
    List<Map<String, Object>> json = new ArrayList<>();
    for (Row r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("case", r.c().key());
      m.put("verdict", r.verdict().label);
      m.put("detail", r.c().detail());
      m.put("ms", r.c().ms());
      if (r.reason() != null) {
        m.put("expectedBecause", r.reason());
      }
      json.add(m);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("cases", json);
    doc.put("stale", stale);
    doc.put("notRun", skipped);
    doc.put("notApplicable", notApplicable);
    JsonMapper.builder().build().writerWithDefaultPrettyPrinter().writeValue(dir.resolve("matrix.json").toFile(), doc);
  }
}
