package com.acme.compat.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verdict rules the whole matrix rests on: what fails a run and what may not. */
class MatrixTest {

  private static Case pass(String feature) {
    return new Case("ts", "person-spring", "grpc", feature, true, "", 1);
  }

  private static Case fail(String feature) {
    return new Case("ts", "person-spring", "grpc", feature, false, "broke", 1);
  }

  private static ExpectedFailures listing(String... features) {
    var reasons = new java.util.LinkedHashMap<String, String>();
    for (String f : features) {
      reasons.put(Case.key("ts", "person-spring", "grpc", f), "known");
    }
    return new ExpectedFailures(reasons);
  }

  @Test
  void allPassingIsOk() {
    assertTrue(new Matrix(List.of(pass("unary"), pass("bidi")), listing()).ok());
  }

  @Test
  void anUnlistedFailureFailsTheRun() {
    Matrix m = new Matrix(List.of(pass("unary"), fail("bidi")), listing());
    assertFalse(m.ok());
    assertEquals(1, m.totals().get(Matrix.Verdict.FAIL));
  }

  @Test
  void aListedFailureIsExpected() {
    Matrix m = new Matrix(List.of(pass("unary"), fail("deadline")), listing("deadline"));
    assertTrue(m.ok());
    assertEquals(1, m.totals().get(Matrix.Verdict.EXPECTED));
    assertTrue(m.markdown("t").contains("expected `ts/person-spring/grpc/deadline`: broke — listed: known"));
  }

  @Test
  void aListedCaseThatPassesFailsTheRun() {
    Matrix m = new Matrix(List.of(pass("deadline")), listing("deadline"));
    assertFalse(m.ok());
    assertEquals(1, m.totals().get(Matrix.Verdict.XPASS));
  }

  @Test
  void anEntryForNoCaseIsStaleAndFailsTheRun() {
    Matrix m = new Matrix(List.of(pass("unary")), listing("no-such-feature"));
    assertFalse(m.ok());
    assertTrue(m.markdown("t").contains("STALE `ts/person-spring/grpc/no-such-feature`"));
  }

  @Test
  void expectedFailuresNeedAReason(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("x.yaml");
    Files.writeString(file, "- case: ts/person-spring/grpc/deadline\n  reason: \"\"\n");
    assertThrows(IllegalArgumentException.class, () -> ExpectedFailures.load(file));
    Files.writeString(file, "- case: ts/person-spring/grpc/deadline\n  reason: a race\n");
    assertEquals(Map.of("ts/person-spring/grpc/deadline", "a race"), ExpectedFailures.load(file).reasons());
  }

  @Test
  void theConfigRefusesTyposInsteadOfDroppingColumns(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("features.yaml");
    String servers = "servers:\n  s:\n    image: i\n    protocols: [grpc]\n    capabilities: [unary]\n";
    Files.writeString(file, servers + "clients:\n  c:\n    dir: c\n    protocols: [grpc]\n    capabilities: [unray]\n");
    assertThrows(IllegalArgumentException.class, () -> Config.load(file));
    Files.writeString(file, servers + "clients:\n  c:\n    dir: c\n    protocols: [grcp]\n    capabilities: [unary]\n");
    assertThrows(IllegalArgumentException.class, () -> Config.load(file));
    Files.writeString(file, servers + "clients:\n  c:\n    dir: c\n    protocols: [grpc]\n    capabilities: [unary]\n");
    Config config = Config.load(file);
    assertEquals(true, Config.canRun(config.clients().get("c"), config.servers().get("s"), List.of("unary")));
    assertEquals(false, Config.canRun(config.clients().get("c"), config.servers().get("s"), List.of("unary", "bidi")));
  }

  @Test
  void aBrowserClientReachesAServerThroughItsWebProxyAndSaysWhatItCannotDo(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("features.yaml");
    String servers = "servers:\n  s:\n    image: i\n    protocols: [grpc]\n    capabilities: [unary, client-stream]\n"
        + "    web-proxy: {image: p, protocols: [grpc-web, connect]}\n";
    String browser = "  b:\n    dir: b\n    browser: true\n    protocols: [grpc-web, connect]\n    capabilities: [unary]\n"
        + "    cannot: {client-stream: fetch sends the body whole}\n";
    String node = "  n:\n    dir: n\n    protocols: [grpc, connect]\n    capabilities: [unary, client-stream]\n";
    Files.writeString(file, servers + "clients:\n" + browser + node);
    Config config = Config.load(file);
    Config.Server s = config.servers().get("s");
    assertEquals(List.of("grpc-web", "connect"), config.protocolsOf(config.clients().get("b"), s));
    // Only a browser client takes the proxy; the others speak what the server itself speaks.
    assertEquals(List.of("grpc"), config.protocolsOf(config.clients().get("n"), s));
    assertEquals("client-stream: fetch sends the body whole", Config.cannot(config.clients().get("b"), List.of("unary", "client-stream")));
    assertEquals(null, Config.cannot(config.clients().get("b"), List.of("unary")));
    // A capability both declared and declared impossible, or an unknown one, is refused.
    Files.writeString(file, servers + "clients:\n" + browser.replace("capabilities: [unary]", "capabilities: [unary, client-stream]"));
    assertThrows(IllegalArgumentException.class, () -> Config.load(file));
    Files.writeString(file, servers + "clients:\n" + browser.replace("client-stream:", "client-streams:"));
    assertThrows(IllegalArgumentException.class, () -> Config.load(file));
  }


  @Test
  void aBrowserClientCallsAServerWithoutAWebProxyDirectly(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("features.yaml");
    Files.writeString(file, "servers:\n"
        + "  a:\n    image: i\n    protocols: [grpc, grpc-web, connect]\n    capabilities: [unary]\n"
        + "clients:\n  b:\n    dir: b\n    browser: true\n    protocols: [grpc-web, connect]\n    capabilities: [unary]\n"
        + "  t:\n    dir: t\n    protocols: [grpc, connect]\n    capabilities: [unary]\n");
    Config config = Config.load(file);
    Config.Server a = config.servers().get("a");
    assertEquals(null, a.webProxy());
    // What the server itself speaks that a page can: both web protocols, never gRPC.
    assertEquals(List.of("grpc-web", "connect"), config.protocolsOf(config.clients().get("b"), a));
    assertEquals(List.of("grpc", "connect"), config.protocolsOf(config.clients().get("t"), a));
    // The declaration that a server is out of a page's reach is gone: an old features.yaml fails loudly.
    Files.writeString(file, Files.readString(file).replace("    capabilities: [unary]\nclients:", "    capabilities: [unary]\n    no-browser: h2c only\nclients:"));
    assertThrows(IllegalArgumentException.class, () -> Config.load(file));
  }

}
