package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
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
    List<String> personRuns = new ArrayList<>();
    fresh(work.resolve("person-db"));
    try (Topology topology = new Topology(config, work)) {
      log("starting auth-node and person-spring");
      topology.start();
      log("auth-node at " + topology.authTarget() + ", person-spring at " + topology.personTarget());
      for (Config.Client client : config.clients().values()) {
        Driver driver = new Driver(client, logs, DRIVER_TIMEOUT);
        for (Config.Server server : config.servers().values()) {
          List<String> features = config.featuresOf(client, server);
          for (String protocol : config.protocolsOf(client, server)) {
            if (features.isEmpty()) {
              continue;
            }
            String runId = runId();
            if (server.name().equals("person-spring")) {
              personRuns.add(runId);
            }
            log(client.name() + " → " + server.name() + " over " + protocol + " (" + features.size() + " features, run " + runId + ")");
            cases.addAll(
                driver.run(
                    server.name(),
                    protocol,
                    features,
                    List.of("live", "--server", server.name(), "--protocol", protocol, "--features", String.join(",", features)),
                    Map.of(
                        "PERSON_TARGET", topology.personTarget(),
                        "AUTH_TARGET", topology.authTarget(),
                        "AUTH_ADMIN_USERNAME", Topology.ADMIN_USERNAME,
                        "AUTH_ADMIN_PASSWORD", topology.adminPassword,
                        "COMPAT_RUN_ID", runId,
                        "COMPAT_NEXT_DESCRIPTORS", nextSchema.toString())));
          }
        }
      }
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
        cases.add(noPartialBatches(people, personRuns));
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

  /** The drivers' cancelled and timed-out streams must have left no row behind. */
  private static Case noPartialBatches(PersonDatabase people, List<String> runs) throws SQLException {
    int rows = 0;
    for (String run : runs) {
      rows += people.countNameContaining(run + " cancel ") + people.countNameContaining(run + " dl");
    }
    return new Case(
        "harness",
        "faults",
        "db",
        "aborted-streams-leave-no-rows",
        rows == 0 && !runs.isEmpty(),
        rows + " rows from the cancelled and deadline-exceeded streams of " + runs.size()
            + " client runs; " + people.countAll() + " people in the table",
        0);
  }

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
