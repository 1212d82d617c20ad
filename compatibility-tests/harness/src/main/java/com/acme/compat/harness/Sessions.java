package com.acme.compat.harness;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Opens a session per client × server × protocol against the running topology. */
final class Sessions {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Endpoints topology;
  private final Schemas schemas;
  private final Path logs;
  private final Config config;

  Sessions(Endpoints topology, Schemas schemas, Path logs, Config config) {
    this.config = config;
    this.topology = topology;
    this.schemas = schemas;
    this.logs = logs;
  }

  /** Runs the cases in one new session (a new run id, a new executor); one Case each. */
  List<Case> run(Config.Client client, String server, String protocol, List<CaseLibrary.Spec> specs,
      List<Session.RowCheck> rows) {
    return run(client, schemas, server, protocol, specs, rows, new ArrayList<>());
  }

  /**
   * The same with a schema of the client's own (a client built on a released SDK speaks its
   * release's schema); a case that release cannot express gets no verdict and a line in skipped.
   */
  List<Case> run(Config.Client client, Schemas schemas, String server, String protocol, List<CaseLibrary.Spec> specs,
      List<Session.RowCheck> rows, List<String> skipped) {
    String runId = runId();
    System.err.println("==> " + client.name() + " → " + server + " over " + protocol + " ("
        + specs.size() + " cases, run " + runId + ")");
    // A browser client also gets each server's address as a page reaches it (its web proxy,
    // where features.yaml gives it one) and the origin its page must be served from.
    Map<String, String> env = Map.of(
        "PERSON_TARGET", topology.personTarget(),
        "AUTH_TARGET", topology.authTarget(),
        "PERSON_REST_TARGET", topology.personRestTarget(),
        "AUTH_REST_TARGET", topology.authRestTarget(),
        "PERSON_WEB_TARGET", webTarget("person-spring", topology.personTarget()),
        "AUTH_WEB_TARGET", webTarget("auth-node", topology.authTarget()),
        "BROWSER_PAGE_ORIGIN", topology.pageOrigin(),
        // Read by the harness's trace steps (TraceStep), never by an executor.
        TraceStep.ZIPKIN_TARGET, topology.zipkinTarget() == null ? "" : topology.zipkinTarget());
    Path log = logs.resolve(client.name() + "-" + server + "-" + protocol + ".log");
    List<Case> cases = new ArrayList<>();
    try (Session session = new Session(client, server, protocol, runId, schemas, env, log,
        topology.adminUsername(), topology.adminPassword())) {
      for (CaseLibrary.Spec spec : specs) {
        Case c;
        try {
          c = session.run(spec, rows);
        } catch (Schemas.NotInRelease e) {
          System.err.println("    " + spec.name() + ": not run, " + e.getMessage());
          skipped.add(Case.key(client.name(), server, protocol, spec.name()) + ": " + e.getMessage());
          continue;
        }
        System.err.println("    " + spec.name() + ": " + (c.passed() ? "pass" : "FAIL " + c.detail()));
        cases.add(c);
      }
    }
    return cases;
  }

  /** Where a page calls the server: its web proxy, when it has one, else the server itself. */
  private String webTarget(String server, String direct) {
    Config.Server spec = config.servers().get(server);
    return spec != null && spec.webProxy() != null ? topology.webProxyTarget() : direct;
  }

  /** Every name a session creates starts with its run id, so sessions never see each other's data. */
  static String runId() {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder id = new StringBuilder().append((char) ('a' + RANDOM.nextInt(26)));
    for (int i = 0; i < 7; i++) {
      id.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return id.toString();
  }
}
