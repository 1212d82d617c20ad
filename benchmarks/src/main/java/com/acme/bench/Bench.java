package com.acme.bench;

import com.acme.compat.harness.Topology;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * `make bench`: starts the services as the compatibility harness does (Topology), runs every
 * scenario plan.reps times, one repetition of all of them after the other (so a slow minute of
 * the machine spreads over the scenarios instead of sinking one), and writes results.json.
 *
 * usage: Bench ROOT OUT_DIR full|smoke PYTHON
 */
public final class Bench {
  /** The file (in OUT_DIR/work) the smoke writes once every service of its scenarios is up. */
  static final String SMOKE_SERVICES_UP = "smoke-services-up";

  private Bench() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]).toAbsolutePath();
    Path out = Files.createDirectories(Path.of(args[1]).toAbsolutePath());
    Plan plan = Plan.of(args[2]);
    String python = args[3];
    Path work = Files.createDirectories(out.resolve("work"));
    Path db = Files.createTempDirectory(work, "person-db");

    Results results = new Results();
    // The services' own defaults, where the compatibility topology changes them to test
    // failures: person-spring caches a token's answer for 5 s (its default), as in production.
    Map<String, String> personSettings = Map.of("AUTH_CACHE_TTL", "5s");
    try (Topology transportOnly = transportOnlyTopology(root, work, personSettings)) {
      CompletableFuture<Void> transportOnlyUp = null;
      try (Topology topology = Topology.of(root, db, Map.of(), personSettings)) {
        long started = System.nanoTime();
        topology.start();
        log("services up in %.1f s", (System.nanoTime() - started) / 1e9);
        // The smoke proves the machinery, not the numbers: the transport-only services start
        // while the scenarios run instead of after them (make bench keeps the machine to one).
        // Once they are up, SMOKE_SERVICES_UP tells bench/run.sh the store's smoke may start
        // its own: never two services starting at once, which on a busy machine outlasts a
        // start's wait.
        if (plan.name().equals("smoke")) {
          transportOnlyUp = CompletableFuture.runAsync(() -> {
            transportOnly.start();
            try {
              Files.writeString(work.resolve(SMOKE_SERVICES_UP), "");
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          });
        }
        scenarios(root, out, plan, python, work, results, topology, personSettings);
      } catch (Exception | Error e) {
        // Its containers are stopped only once its start has ended, whatever the start did.
        if (transportOnlyUp != null) {
          transportOnlyUp.handle((v, t) -> null).join();
        }
        throw e;
      }
      long started = System.nanoTime();
      if (transportOnlyUp == null) {
        transportOnly.start();
      } else {
        transportOnlyUp.join();
      }
      log("transport-only services up %.1f s after the scenarios", (System.nanoTime() - started) / 1e9);
      transportOnly(transportOnly, plan, results);
    }
    results.write(out.resolve("results.json"));
  }

  /** Every scenario but the transport-only one, plan.reps() times, on the running topology. */
  private static void scenarios(Path root, Path out, Plan plan, String python, Path work, Results results,
      Topology topology, Map<String, String> personSettings) throws Exception {
    Services services = new Services(topology);
    describe(results, plan, services, personSettings);

    CallsInARow s1 = new CallsInARow(services, results);
    HeaderBytes s2 = new HeaderBytes(services, results, root);
    PayloadSweep s3 = new PayloadSweep(services, results);
    NewConnections s4 = new NewConnections(services, results);
    Concurrency s5 = new Concurrency(services, results, root, python);
    PhaseShares s6 = new PhaseShares(services, results);
    ConcurrentUploads s7 = new ConcurrentUploads(services, results, root, python);
    CrossCheck cross = new CrossCheck(services, results, work);
    List<String> large = s5.store();
    try (AuthNodeThroughput authNode = new AuthNodeThroughput(services, results, root, work)) {
      for (int rep = 1; rep <= plan.reps(); rep++) {
        int r = rep;
        step("s1 calls in a row", rep, () -> s1.run(plan.callsInARow(), r));
        step("s2 header bytes", rep, () -> s2.run(plan.headerCalls(), r));
        step("s3 payload sweep", rep, () -> s3.run(plan.sweepRequests(), r));
        step("s4 new connections", rep, () -> s4.run(plan.newConnectionCalls(), r));
        step("s5 concurrency", rep, () -> s5.run(large, plan.concurrentRequests(), r));
        step("s6 phases", rep, () -> s6.run(plan.phaseCalls(), r));
        step("s7 concurrent uploads", rep, () -> s7.run(plan.uploaders(), plan.uploadPeople(), r));
        step("cross-check: h2load, both protocols", rep, () -> cross.sameClient(plan.sameClientRequests(), r));
        step("auth-node beside bare Node, metrics on and off: h2load", rep, () -> authNode.run(plan.sameClientRequests(), r));
        step("cross-check: s1 by ghz and h2load", rep, () -> cross.callsInARow(plan.crossCheckCallsInARow(), r));
        step("cross-check: s3 by ghz and h2load", rep, () -> cross.payloadSweep(plan.crossCheckSweepRequests(), r));
      }
    } finally {
      topology.saveLogs(work);
      results.write(out.resolve("results.json"));
      log("%d figures in %s", results.size(), out.resolve("results.json"));
    }
  }

  /**
   * The topology of scenario 1 again with person-spring in its benchmark-only transport mode
   * (PERSON_TRANSPORT_ONLY: every request validated and answered, nothing stored): a topology of
   * its own, used after the others: the transport's share without the store's.
   */
  private static Topology transportOnlyTopology(Path root, Path work, Map<String, String> personSettings) throws IOException {
    Map<String, String> settings = new java.util.HashMap<>(personSettings);
    settings.put("PERSON_TRANSPORT_ONLY", "true");
    return Topology.of(root, Files.createTempDirectory(work, "person-db"), Map.of(), settings);
  }

  /** Scenario 1 on the transport-only topology, once the others are done. */
  private static void transportOnly(Topology topology, Plan plan, Results results) throws Exception {
    CallsInARow s1 = new CallsInARow(new Services(topology), results, "person-spring-transport-only");
    for (int rep = 1; rep <= plan.reps(); rep++) {
      int r = rep;
      step("s1 calls in a row, transport only", rep, () -> s1.run(plan.callsInARow(), r));
    }
  }

  interface Step {
    void run() throws Exception;
  }

  private static void step(String name, int rep, Step step) throws Exception {
    // BENCH_STEPS (comma-separated parts of step names) measures some steps alone, into an
    // output folder of its own: never into benchmarks/results/, whose report needs them all.
    String only = System.getenv("BENCH_STEPS");
    if (only != null && !only.isBlank() && java.util.Arrays.stream(only.split(",")).noneMatch(part -> name.contains(part.strip()))) {
      return;
    }
    long start = System.nanoTime();
    // Some calls wait without a deadline (a deadline would add grpc-timeout to every request
    // that scenario 2 counts): a service that stops answering must end the run, not hold it.
    // The step is interrupted (a blocking call then ends CANCELLED), so the run's own cleanup
    // still saves the services' logs and the figures; if even that does not end it, it exits.
    Thread runner = Thread.currentThread();
    // RUNNING until the step ends (DONE) or the watchdog fires (FIRED): whichever comes first.
    var state = new java.util.concurrent.atomic.AtomicInteger(RUNNING);
    var watchdog = WATCHDOG.schedule(() -> {
      if (!state.compareAndSet(RUNNING, FIRED)) {
        return;
      }
      log("rep %d: %s has not finished in %d minutes: a service stopped answering; the step is interrupted", rep,
          name, STEP_LIMIT_MINUTES);
      runner.interrupt();
      WATCHDOG.schedule(() -> {
        log("rep %d: %s was interrupted %d minutes ago and the run has not ended; it stops", rep, name,
            CLEANUP_LIMIT_MINUTES);
        System.exit(3);
      }, CLEANUP_LIMIT_MINUTES, java.util.concurrent.TimeUnit.MINUTES);
    }, STEP_LIMIT_MINUTES, java.util.concurrent.TimeUnit.MINUTES);
    boolean interrupted = false;
    try {
      step.run();
    } finally {
      watchdog.cancel(false);
      if (!state.compareAndSet(RUNNING, DONE)) {
        interrupted = true;
        Thread.interrupted(); // so the cleanup's own waits (saving the logs) are not cut short
      }
    }
    if (interrupted) {
      throw new IllegalStateException(name + " was interrupted after " + STEP_LIMIT_MINUTES + " minutes");
    }
    log("rep %d: %s (%.1f s)", rep, name, (System.nanoTime() - start) / 1e9);
  }

  /** The longest a step may take: the longest takes about 4 minutes at full size on 2 cores. */
  private static final int STEP_LIMIT_MINUTES = 20;
  /** After an interruption, the run's cleanup (logs, figures, containers stopped) gets this long. */
  private static final int CLEANUP_LIMIT_MINUTES = 5;
  private static final int RUNNING = 0;
  private static final int DONE = 1;
  private static final int FIRED = 2;

  private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-step-watchdog");
        t.setDaemon(true);
        return t;
      });

  /** What the report must say about how its figures were made. */
  private static void describe(Results results, Plan plan, Services services, Map<String, String> personSettings)
      throws IOException, InterruptedException {
    results.meta("plan", plan.name());
    results.meta("repetitions", plan.reps());
    results.meta("date", Instant.now().toString());
    results.meta("cores", Runtime.getRuntime().availableProcessors());
    results.meta("memory", ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize() >> 20);
    results.meta("client JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    results.meta("auth-node Node", External.run(List.of("docker", "exec", services.authContainer, "node", "--version"), Map.of()).trim());
    results.meta("person-spring JRE", External.run(List.of("docker", "exec", services.personContainer, "java", "-version"), Map.of())
        .lines().findFirst().orElse("").trim());
    // The image each running container was made from (the harness's Config, which names
    // them, is not visible outside its package).
    results.meta("auth-node image", External.run(List.of("docker", "inspect", "-f", "{{.Image}}", services.authContainer), Map.of()).trim());
    results.meta("person-spring image", External.run(List.of("docker", "inspect", "-f", "{{.Image}}", services.personContainer), Map.of()).trim());
    results.meta("ghz", "ghz " + System.getenv().getOrDefault("GHZ_VERSION", "(version unknown)"));
    results.meta("h2load", External.run(List.of("h2load", "--version"), Map.of()).lines().findFirst().orElse("").trim());
    results.meta("person-spring settings", personSettings.toString() + " over compatibility-tests/person-spring.env");
    results.meta("warm-ups", "s1: " + CallsInARow.WARMUP + " calls of the same kind per N; s4: 50 calls per series; "
        + "s5: 5 % of the calls; s6: up to 1,000 calls of each method; s3: none (open loop, every request counted); "
        + "s7: none (every stream counted)");
  }

  static void log(String format, Object... args) {
    System.err.printf("[bench] " + format + "%n", args);
  }
}
