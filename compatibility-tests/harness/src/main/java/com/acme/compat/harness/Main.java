package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The compatibility harness. Usage: {@code Main <repository root>}; scripts/tests/compat.sh builds
 * the images, the clients and the newer schema first. Order: the golden vectors (no servers
 * needed), then the topology — the harness's own, or with COMPAT_TOPOLOGY and COMPAT_SYSTEM a
 * running system's (features.yaml topologies) — every case of cases/ for every client × protocol
 * that can run it there (features.yaml), the fault, and last the database checks. Prints the
 * matrix, writes it to .tmp/compat/matrix.{md,json} (.tmp/compat-TOPOLOGY/ for another
 * topology), and exits non-zero when a case fails or the expected-failures list is stale.
 */
public final class Main {

  private static final Duration GOLDEN_TIMEOUT = Duration.ofMinutes(5);
  private static final int REPRODUCE_ATTEMPTS = 5;

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: Main <repository root>");
      System.exit(2);
    }
    long start = System.nanoTime();
    Path root = Path.of(args[0]).toAbsolutePath().normalize();
    Path tests = root.resolve("compatibility-tests");
    Config config = Config.load(tests.resolve("features.yaml"));
    ExpectedFailures expected = ExpectedFailures.load(tests.resolve("expected-failures.yaml"));
    // The topology (features.yaml topologies): the harness's own unless COMPAT_TOPOLOGY names
    // a running system's, whose endpoints COMPAT_SYSTEM gives (make up's endpoints.env).
    Config.TopologySpec where = config.topology(System.getenv().getOrDefault("COMPAT_TOPOLOGY", Config.DEFAULT_TOPOLOGY));
    for (String t : expected.topologyNames()) {
      config.topology(t);
    }
    expected = expected.on(where.name());
    // Each topology's matrix and logs in a folder of its own, so one run does not erase another's.
    Path work = root.resolve(where.name().equals(Config.DEFAULT_TOPOLOGY) ? ".tmp/compat" : ".tmp/compat-" + where.name());
    Path logs = fresh(work.resolve("logs"));
    Path nextSchema = root.resolve(".tmp/compat/schema-next/schema-next.binpb");
    if (!Files.isRegularFile(nextSchema)) {
      throw new IllegalStateException(nextSchema + " is missing: run compatibility-tests/schema-next/build.sh");
    }

    List<CaseLibrary.Spec> library = CaseLibrary.load(tests.resolve("cases"), config);
    List<String> unknown = where.unknownCases(library);
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("features.yaml: topologies." + where.name() + ".not-applicable names no case: " + unknown);
    }
    Schemas schemas = new Schemas(nextSchema);

    // Clients built on released SDK versions (COMPAT_RELEASED); with COMPAT_ONLY_RELEASED=1 only
    // they run (no golden vectors, no fault): what a release checks before it publishes.
    List<ClientRun> released = ClientRun.released(System.getenv("COMPAT_RELEASED"), config, nextSchema);
    boolean onlyReleased = "1".equals(System.getenv("COMPAT_ONLY_RELEASED"));
    if (onlyReleased && released.isEmpty()) {
      throw new IllegalStateException("COMPAT_ONLY_RELEASED=1 but COMPAT_RELEASED lists no client");
    }
    if (onlyReleased) {
      expected = expected.released();
    }
    List<Case> cases = new ArrayList<>(onlyReleased ? List.of() : golden(config, tests, fresh(work.resolve("golden")), logs));
    List<Session.RowCheck> rows = new ArrayList<>();
    List<String> skipped = new ArrayList<>();
    List<String> notApplicable = new ArrayList<>();
    try (Endpoints topology = where.harnessStarts()
        ? new Topology(config, tests, fresh(work.resolve("person-db")))
        : RunningSystem.load(Path.of(required("COMPAT_SYSTEM")))) {
      log("topology " + where.name() + (where.harnessStarts() ? ": starting auth-node and person-spring" : ": a running system"));
      topology.start();
      log("auth-node at " + topology.authTarget() + ", person-spring at " + topology.personTarget());
      Sessions sessions = new Sessions(topology, schemas, logs, config);
      List<ClientRun> runs = new ArrayList<>();
      if (!onlyReleased) {
        config.clients().values().forEach(c -> runs.add(new ClientRun(c, schemas)));
      }
      runs.addAll(released);
      for (ClientRun run : runs) {
        Config.Client client = run.client();
        for (Config.Server server : config.servers().values()) {
          List<CaseLibrary.Spec> specs = library.stream()
              .filter(c -> c.server().equals(server.name()) && Config.canRun(client, server, c.requires()))
              .toList();
          // What the client declares it cannot do is listed with its reason, not silently left out.
          List<CaseLibrary.Spec> cannot = library.stream()
              .filter(c -> c.server().equals(server.name()) && server.capabilities().containsAll(c.requires())
                  && Config.cannot(client, c.requires()) != null)
              .toList();
          // And so is what the topology cannot offer.
          List<CaseLibrary.Spec> here = specs.stream()
              .filter(c -> where.notApplicable(server.name(), c.name(), c.requires()) == null)
              .toList();
          for (String protocol : config.protocolsOf(client, server)) {
            cannot.forEach(c -> skipped.add(Case.key(client.name(), server.name(), protocol, c.name()) + ": "
                + Config.cannot(client, c.requires())));
            specs.stream().filter(c -> !here.contains(c)).forEach(c -> notApplicable.add(
                Case.key(client.name(), server.name(), protocol, c.name()) + ": "
                    + where.notApplicable(server.name(), c.name(), c.requires())));
            if (!here.isEmpty()) {
              cases.addAll(sessions.run(client, run.schemas(), server.name(), protocol, here, rows, skipped));
            }
          }
        }
      }
      reproduceExpectedFailures(cases, expected, runs, library, sessions, rows);
      cases.addAll(BrowserReach.check(config, topology));
      AuthOutageFault outage = null;
      if (!onlyReleased && config.faults().contains(AuthOutageFault.FAULT)) {
        String why = where.faultNotApplicable(AuthOutageFault.FAULT);
        if (why != null) {
          notApplicable.add(Case.key("harness", "faults", "grpc", AuthOutageFault.FAULT) + ": " + why);
        } else if (topology instanceof Topology owned) {
          log("fault: stopping auth-node while person-spring is under calls");
          outage = new AuthOutageFault(Sessions.runId());
          cases.addAll(outage.run(owned));
        } else {
          throw new IllegalStateException("features.yaml: topology " + where.name() + " must declare fault/"
              + AuthOutageFault.FAULT + " not applicable: the fault stops a container only a topology the harness starts owns");
        }
      }
      log("person-spring's database: the rows each case must leave");
      PersonDatabase opened;
      try {
        opened = topology.personDatabase();
      } finally {
        topology.saveLogs(logs);
      }
      try (PersonDatabase people = opened) {
        if (outage != null) {
          cases.add(outage.checkDatabase(people));
        }
        cases.addAll(rowChecks(people, rows));
      }
    }

    Matrix matrix = new Matrix(cases, expected, skipped, notApplicable);
    long seconds = (System.nanoTime() - start) / 1_000_000_000;
    String title = "Compatibility matrix on topology " + where.name() + " (harness " + seconds + " s)";
    System.out.println();
    System.out.print(matrix.markdown(title));
    matrix.write(work, title);
    System.out.println("\nwritten to " + work.resolve("matrix.md") + " and matrix.json; client and service logs in " + logs);
    System.exit(matrix.ok() ? 0 : 1);
  }

  /**
   * A listed failure that passed gets {@value #REPRODUCE_ATTEMPTS} more runs, each in a fresh
   * session: a gap that depends on a race still counts as expected if it shows at least once,
   * while a gap that was really closed passes every time and becomes XPASS — the list still
   * cannot rot.
   */
  private static void reproduceExpectedFailures(
      List<Case> cases, ExpectedFailures expected, List<ClientRun> runs, List<CaseLibrary.Spec> library, Sessions sessions,
      List<Session.RowCheck> rows) {
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      ClientRun run = runs.stream().filter(r -> r.client().name().equals(c.client())).findFirst().orElse(null);
      CaseLibrary.Spec spec = library.stream()
          .filter(s -> s.server().equals(c.server()) && s.name().equals(c.feature()))
          .findFirst().orElse(null);
      if (!c.passed() || !expected.lists(c.key()) || spec == null || run == null) {
        continue;
      }
      for (int attempt = 1; attempt <= REPRODUCE_ATTEMPTS; attempt++) {
        Case again = sessions.run(run.client(), run.schemas(), c.server(), c.protocol(), List.of(spec), rows, new ArrayList<>())
            .get(0);
        if (!again.passed()) {
          cases.set(i, new Case(c.client(), c.server(), c.protocol(), c.feature(), false,
              again.detail() + " (passed once, failed on re-run " + attempt + ")", again.ms()));
          break;
        }
      }
    }
  }

  /**
   * Each golden client encodes every vector, then decodes every other client's output: bytes
   * and JSON are checked against the checked-in vectors and across the SDKs.
   */
  private static List<Case> golden(Config config, Path tests, Path out, Path logs)
      throws IOException, InterruptedException {
    List<Case> cases = new ArrayList<>();
    String vectors = tests.resolve("golden/vectors.json").toString();
    List<Config.Client> clients = config.goldenClients();
    for (Config.Client client : clients) {
      log(client.name() + ": golden vectors, encode");
      Path dir = Files.createDirectories(out.resolve(client.name()));
      cases.addAll(
          new GoldenRun(client, logs, GOLDEN_TIMEOUT)
              .run(
                  "golden",
                  "encode",
                  List.of("golden-binary", "golden-json", "golden-unknown-fields"),
                  List.of("golden-encode", "--vectors", vectors, "--out", dir.toString()),
                  Map.of()));
    }
    for (Config.Client client : clients) {
      for (Config.Client peer : clients) {
        if (peer == client) {
          continue;
        }
        log(client.name() + ": golden vectors, decode " + peer.name() + "'s output");
        cases.addAll(
            new GoldenRun(client, logs, GOLDEN_TIMEOUT)
                .run(
                    "golden",
                    "from-" + peer.name(),
                    List.of("golden-decode"),
                    List.of(
                        "golden-decode", "--vectors", vectors, "--peer", peer.name(), "--in", out.resolve(peer.name()).toString()),
                    Map.of()));
      }
    }
    return cases;
  }

  /**
   * In the database itself, per client and check: the rows the cases said their runs must leave
   * (cases/*.yaml, "database"; for example none for a cancelled stream, exactly one for a
   * deadline-exceeded stream repeated with its request_id), summed over the client's sessions.
   */
  private static List<Case> rowChecks(PersonDatabase people, List<Session.RowCheck> rows) throws SQLException {
    Map<String, int[]> sums = new LinkedHashMap<>();
    for (Session.RowCheck r : rows) {
      int[] sum = sums.computeIfAbsent(r.client() + "\0" + r.caseName() + ":" + r.check(), k -> new int[3]);
      sum[0] += r.rows();
      sum[1] += people.countNameContaining(r.nameContains());
      sum[2]++;
    }
    List<Case> cases = new ArrayList<>();
    sums.forEach((key, sum) -> {
      String[] parts = key.split("\0");
      cases.add(new Case(parts[0], "person-spring", "db", parts[1], sum[0] == sum[1],
          sum[1] + " rows where " + sum[2] + " runs must leave " + sum[0], 0));
    });
    return cases;
  }

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(name + " is not set: a topology the harness does not start needs its system's endpoints file");
    }
    return value;
  }

  private static Path fresh(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> walk = Files.walk(dir)) {
        for (Path p : walk.sorted((a, b) -> b.compareTo(a)).toList()) {
          Files.delete(p);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  private static void log(String message) {
    System.err.println("==> " + message);
  }
}
