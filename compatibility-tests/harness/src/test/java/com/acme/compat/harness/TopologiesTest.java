package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * features.yaml topologies and what they change: what a topology declares not applicable (and
 * that a typo there is refused rather than dropping nothing), which expected failures hold on
 * it, and that the matrix counts both per client instead of leaving them out.
 */
class TopologiesTest {

  private static final String BASE = "servers:\n  s:\n    image: i\n    protocols: [grpc]\n    capabilities: [unary, bidi]\n"
      + "clients:\n  c:\n    dir: c\n    protocols: [grpc]\n    capabilities: [unary, bidi]\n"
      + "faults: [auth-outage]\n";

  private static Config load(Path dir, String topologies) throws IOException {
    Path file = dir.resolve("features.yaml");
    Files.writeString(file, BASE + topologies);
    return Config.load(file);
  }

  @Test
  void withoutTopologiesOnlyTheHarnessesOwnRuns(@TempDir Path dir) throws IOException {
    Config config = load(dir, "");
    assertEquals(List.of("harness"), List.copyOf(config.topologies().keySet()));
    assertTrue(config.topology("harness").harnessStarts());
    assertThrows(IllegalArgumentException.class, () -> config.topology("scaled"));
  }

  @Test
  void aTopologySaysWhatItCannotOfferWithTheReason(@TempDir Path dir) throws IOException {
    Config config = load(dir, "topologies:\n  harness: {start: harness}\n  scaled:\n    start: system\n    not-applicable:\n"
        + "      fault/auth-outage: not its container\n      case/s/one: one process only\n      capability/bidi: no streams\n");
    Config.TopologySpec scaled = config.topology("scaled");
    assertFalse(scaled.harnessStarts());
    assertEquals("fault/auth-outage: not its container", scaled.faultNotApplicable("auth-outage"));
    assertEquals("case/s/one: one process only", scaled.notApplicable("s", "one", List.of("unary")));
    assertEquals("capability/bidi: no streams", scaled.notApplicable("s", "other", List.of("unary", "bidi")));
    assertNull(scaled.notApplicable("s", "other", List.of("unary")));
    assertNull(config.topology("harness").faultNotApplicable("auth-outage"));
    // A case entry that names no case of the library is reported, so the harness refuses it.
    CaseLibrary.Spec one = new CaseLibrary.Spec("s", "one", List.of("unary"), null, List.of(), Map.of());
    assertEquals(List.of(), scaled.unknownCases(List.of(one)));
    assertEquals(List.of("case/s/one"), scaled.unknownCases(List.of()));
  }

  @Test
  void typosInATopologyAreRefused(@TempDir Path dir) {
    String scaled = "topologies:\n  harness: {start: harness}\n  scaled:\n    start: system\n    not-applicable:\n      ";
    // An unknown fault, capability or kind of entry; a missing reason; an unknown start; no harness topology.
    assertThrows(IllegalArgumentException.class, () -> load(dir, scaled + "fault/auth-outtage: x\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, scaled + "capability/bidy: x\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, scaled + "feature/x: x\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, scaled + "case/s: x\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, scaled + "case/s/one: \"\"\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, "topologies:\n  harness: {start: harness}\n  scaled: {start: cluster}\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, "topologies:\n  scaled: {start: system}\n"));
    assertThrows(IllegalArgumentException.class, () -> load(dir, "topologies:\n  harness: {start: harness, skip: x}\n"));
  }

  @Test
  void anExpectedFailureHoldsOnTheTopologiesItNames(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("expected-failures.yaml");
    Files.writeString(file, "- case: ts/s/grpc/a\n  reason: everywhere\n"
        + "- case: ts/s/grpc/b\n  reason: only scaled\n  topologies: [scaled]\n");
    ExpectedFailures all = ExpectedFailures.load(file);
    assertEquals(java.util.Set.of("scaled"), all.topologyNames());
    assertTrue(all.on("scaled").lists("ts/s/grpc/a"));
    assertTrue(all.on("scaled").lists("ts/s/grpc/b"));
    assertTrue(all.on("harness").lists("ts/s/grpc/a"));
    assertFalse(all.on("harness").lists("ts/s/grpc/b"));
    // On its topology it is judged like any entry: a pass is XPASS, a missing case is stale.
    Matrix xpass = new Matrix(
        List.of(new Case("ts", "s", "grpc", "a", false, "x", 1), new Case("ts", "s", "grpc", "b", true, "", 1)), all.on("scaled"));
    assertFalse(xpass.ok());
    assertTrue(xpass.markdown("t").contains("XPASS `ts/s/grpc/b`"));
    // Off its topology it is not listed there, so the same run passes.
    assertTrue(new Matrix(
        List.of(new Case("ts", "s", "grpc", "a", false, "x", 1), new Case("ts", "s", "grpc", "b", true, "", 1)), all.on("harness")).ok());
    Matrix scaled = new Matrix(List.of(new Case("ts", "s", "grpc", "a", false, "x", 1)), all.on("scaled"));
    assertFalse(scaled.ok());
    assertTrue(scaled.markdown("t").contains("STALE `ts/s/grpc/b`"));
    Files.writeString(file, "- case: ts/s/grpc/b\n  reason: r\n  topologies: []\n");
    assertThrows(IllegalArgumentException.class, () -> ExpectedFailures.load(file));
    Files.writeString(file, "- case: ts/s/grpc/b\n  reason: r\n  topology: scaled\n");
    assertThrows(IllegalArgumentException.class, () -> ExpectedFailures.load(file));
  }

  @Test
  void theMatrixCountsPerClientWhatRanAndWhatDidNot() {
    Matrix m = new Matrix(
        List.of(new Case("ts", "s", "grpc", "a", true, "", 1), new Case("ts", "s", "grpc", "b", false, "x", 1),
            new Case("java", "s", "grpc", "a", true, "", 1)),
        new ExpectedFailures(Map.of("ts/s/grpc/b", "known")),
        List.of("ts/s/connect/c: bidi: none"),
        List.of("java/s/grpc/d: case/s/d: one process", "harness/faults/grpc/auth-outage: fault/auth-outage: not owned"));
    assertTrue(m.ok());
    String md = m.markdown("t");
    assertTrue(md.contains("| ts | 2 | 1 | 1 | 0 | 1 | 0 |"), md);
    assertTrue(md.contains("| java | 1 | 1 | 0 | 0 | 0 | 1 |"), md);
    assertTrue(md.contains("| harness | 0 | 0 | 0 | 0 | 0 | 1 |"), md);
    assertTrue(md.contains("## Not applicable on this topology"), md);
    assertTrue(md.contains("- `harness/faults/grpc/auth-outage: fault/auth-outage: not owned`"), md);
  }
}
