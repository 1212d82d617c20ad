package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The compatibility harness. Usage: {@code Main <repository root>}; scripts/test-compat.sh builds
 * the images, the drivers and the newer schema first. Order: the golden vectors (no servers
 * needed), then the topology, every client × server × protocol from features.yaml, the fault,
 * and last the database checks once person-spring has stopped. Prints the matrix, writes it to
 * .tmp/compat/matrix.{md,json}, and exits non-zero when a case fails or the expected-failures
 * list is stale.
 */
public final class Main {

  private static final Duration DRIVER_TIMEOUT = Duration.ofMinutes(5);
  private static final int REPRODUCE_ATTEMPTS = 5;
  private static final SecureRandom RANDOM = new SecureRandom();

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
    Path work = root.resolve(".tmp/compat");
    Path logs = fresh(work.resolve("logs"));
    Path nextSchema = work.resolve("schema-next/schema-next.binpb");
    if (!Files.isRegularFile(nextSchema)) {
      throw new IllegalStateException(nextSchema + " is missing: run compatibility-tests/schema-next/build.sh");
    }

    List<Case> cases = new ArrayList<>(golden(config, tests, fresh(work.resolve("golden")), logs));
    Map<String, List<PersonRun>> personRuns = new LinkedHashMap<>();
    try (Topology topology = new Topology(config, tests, fresh(work.resolve("person-db")))) {
      log("starting auth-node and person-spring");
      topology.start();
      log("auth-node at " + topology.authTarget() + ", person-spring at " + topology.personTarget());
      for (Config.Client client : config.clients().values()) {
        for (Config.Server server : config.servers().values()) {
          List<String> features = config.featuresOf(client, server);
          for (String protocol : config.protocolsOf(client, server)) {
            if (!features.isEmpty()) {
              cases.addAll(live(client, server, protocol, features, topology, nextSchema, logs, personRuns));
            }
          }
        }
      }
      reproduceExpectedFailures(cases, expected, config, topology, nextSchema, logs, personRuns);
      AuthOutageFault outage = null;
      if (config.faults().contains(AuthOutageFault.FAULT)) {
        log("fault: stopping auth-node while person-spring is under calls");
        outage = new AuthOutageFault(runId());
        cases.addAll(outage.run(topology));
      }
      log("stopping person-spring, then counting rows in its database");
      Path db;
      try {
        db = topology.stopPerson();
      } finally {
        topology.saveLogs(logs);
      }
      try (PersonDatabase people = new PersonDatabase(db)) {
        if (outage != null) {
          cases.add(outage.checkDatabase(people));
        }
        cases.addAll(abortedStreamRows(people, personRuns));
      }
    }

    Matrix matrix = new Matrix(cases, expected);
    long seconds = (System.nanoTime() - start) / 1_000_000_000;
    String title = "Compatibility matrix (harness " + seconds + " s)";
    System.out.println();
    System.out.print(matrix.markdown(title));
    matrix.write(work, title);
    System.out.println("\nwritten to " + work.resolve("matrix.md") + " and matrix.json; driver logs in " + logs);
    System.exit(matrix.ok() ? 0 : 1);
  }

  /** One driver run: a client against a server over one protocol, for the given features. */
  private static List<Case> live(
      Config.Client client,
      Config.Server server,
      String protocol,
      List<String> features,
      Topology topology,
      Path nextSchema,
      Path logs,
      Map<String, List<PersonRun>> personRuns)
      throws IOException, InterruptedException {
    String runId = runId();
    if (server.name().equals("person-spring")) {
      personRuns.computeIfAbsent(client.name(), k -> new ArrayList<>()).add(new PersonRun(runId, features));
    }
    log(client.name() + " → " + server.name() + " over " + protocol + " (" + features.size() + " features, run " + runId + ")");
    return new Driver(client, logs, DRIVER_TIMEOUT)
        .run(
            server.name(),
            protocol,
            features,
            List.of("live", "--server", server.name(), "--protocol", protocol, "--features", String.join(",", features)),
            Map.of(
                "PERSON_TARGET", topology.personTarget(),
                "AUTH_TARGET", topology.authTarget(),
                "AUTH_ADMIN_USERNAME", topology.adminUsername,
                "AUTH_ADMIN_PASSWORD", topology.adminPassword,
                "COMPAT_RUN_ID", runId,
                "COMPAT_NEXT_DESCRIPTORS", nextSchema.toString()));
  }

  /**
   * A listed failure that passed gets {@value #REPRODUCE_ATTEMPTS} more runs: a gap that depends
   * on a race still counts as expected if it shows at least once, while a gap that was really
   * closed passes every time and becomes XPASS — the list still cannot rot.
   */
  private static void reproduceExpectedFailures(
      List<Case> cases,
      ExpectedFailures expected,
      Config config,
      Topology topology,
      Path nextSchema,
      Path logs,
      Map<String, List<PersonRun>> personRuns)
      throws IOException, InterruptedException {
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      Config.Server server = config.servers().get(c.server());
      if (!c.passed() || !expected.lists(c.key()) || server == null) {
        continue;
      }
      Config.Client client = config.clients().get(c.client());
      for (int attempt = 1; attempt <= REPRODUCE_ATTEMPTS; attempt++) {
        Case again = live(client, server, c.protocol(), List.of(c.feature()), topology, nextSchema, logs, personRuns).get(0);
        if (!again.passed()) {
          cases.set(
              i,
              new Case(c.client(), c.server(), c.protocol(), c.feature(), false,
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
          new Driver(client, logs, DRIVER_TIMEOUT)
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
            new Driver(client, logs, DRIVER_TIMEOUT)
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
   * In the database itself, per client: its cancelled RegisterPeople streams (names "<run>
   * cancel <i>", README) must have left no row behind, and each run's deadline-exceeded stream,
   * repeated with its request_id, exactly one ("<run> dl") — never none, never two.
   */
  private static List<Case> abortedStreamRows(PersonDatabase people, Map<String, List<PersonRun>> runsByClient)
      throws SQLException {
    List<Case> cases = new ArrayList<>();
    for (var entry : runsByClient.entrySet()) {
      int cancelRuns = 0, cancelRows = 0, deadlineRuns = 0, deadlineRows = 0;
      for (PersonRun run : entry.getValue()) {
        if (run.features().contains("cancel-mid-stream")) {
          cancelRuns++;
          cancelRows += people.countNameContaining(run.id() + " cancel ");
        }
        if (run.features().contains("deadline")) {
          deadlineRuns++;
          deadlineRows += people.countNameContaining(run.id() + " dl");
        }
      }
      cases.add(new Case(entry.getKey(), "person-spring", "db", "cancel-mid-stream:no-rows", cancelRows == 0,
          cancelRows + " rows left by " + cancelRuns + " runs' cancelled streams", 0));
      cases.add(new Case(entry.getKey(), "person-spring", "db", "deadline:one-row-per-run", deadlineRows == deadlineRuns,
          deadlineRows + " rows for " + deadlineRuns + " runs' deadline-exceeded and repeated streams", 0));
    }
    return cases;
  }

  /** One driver run against person-spring: its run id (the prefix of its names) and features. */
  private record PersonRun(String id, List<String> features) {}

  private static String runId() {
    String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    StringBuilder id = new StringBuilder().append((char) ('a' + RANDOM.nextInt(26)));
    for (int i = 0; i < 7; i++) {
      id.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
    }
    return id.toString();
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
