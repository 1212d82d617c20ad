package com.acme.crash.person;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import com.acme.person.v1.GetPersonRequest;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.RegisterPeopleRequest;
import com.acme.person.v1.RegisterPeopleResponse;
import com.acme.person.v1.Person;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The crash test of person-spring, against its running container (scripts/tests/crash.sh starts
 * it with compatibility-tests/topology.sh, on the embedded H2 file or on PostgreSQL).
 *
 * <p>kill: load (RegisterPerson writers and RegisterPeople streams), SIGKILL at a random moment,
 * restart, then everything acknowledged must be stored exactly as answered (Check), every
 * request_id replayed must get the same answer (Replay), and then every person sent is stored
 * exactly once.
 *
 * <p>term: the same load, and a RegisterPeople stream open when SIGTERM arrives; the stream
 * finishes and is answered, every other call ends OK or UNAVAILABLE, the service exits within
 * its grace period after closing its store, and after a restart the same checks hold.
 *
 * <p>disk (the embedded store only): the disk fills up and turns read-only under writers, then
 * recovers (DiskScenario).
 *
 * <p>usage: CrashTest STORE SCENARIO… (kill, term, disk), the scenarios one after the other in one
 * program (its start and login took seconds each on a busy machine); the topology's environment
 * (topology.sh up) names the service. Exits 1, after every scenario ran, if any failed, with one
 * line per kind of failure.
 */
public final class CrashTest {
  private static final Duration GRACE = Duration.ofSeconds(30);
  /**
   * Acknowledged RegisterPerson calls and RegisterPeople streams after which the crash may land
   * (or after 60 s of load, on a machine too busy to get there). A thousand people to hold the
   * service to is plenty: what the kill proves is that it cut calls in flight (8 writers keep 8
   * calls open) and lost none of what was answered, and every person more is read back,
   * replayed, read back again and makes the next start of the store slower.
   */
  private static final long MIN_UNARY = 1_000;
  private static final long MIN_STREAMS = 3;
  /** Up to this many acknowledged calls more than MIN_UNARY before the crash: its random moment. */
  private static final long MAX_EXTRA_UNARY = 1_000;

  private CrashTest() {}

  public static void main(String[] args) {
    String store = args[0];
    boolean failed = false;
    for (String scenario : List.of(args).subList(1, args.length)) {
      scenarioStarted = System.nanoTime();
      Phases.begin();
      try {
        failed |= !run(scenario, store);
      } catch (Exception e) {
        // The next scenario still runs, as it did when each had a program of its own.
        log("FAIL %s on %s: %s", scenario, store, e);
        e.printStackTrace(System.out);
        failed = true;
      }
    }
    System.exit(failed ? 1 : 0);
  }

  /** One scenario on the running service; true if it passed. */
  private static boolean run(String scenario, String store) throws Exception {
    long seed = Long.parseLong(System.getenv().getOrDefault("CRASH_SEED", Long.toString(System.nanoTime() % 1_000_000)));
    Random random = new Random(seed);
    String prefix = String.format("crash-%s-%06x-", scenario, random.nextInt(1 << 24));
    Service service = new Service(env("PERSON_CONTAINER"), login());
    log("%s on %s, seed %d, people named %s…", scenario, store, seed, prefix);
    Phases.end("start and login");

    Verdict verdict = new Verdict();
    if (scenario.equals("disk")) {
      DiskScenario.run(service, prefix, verdict);
      return finish(scenario, store, verdict);
    }
    Ledger ledger = new Ledger();
    Load load = new Load(service, ledger, prefix, 8, 2);
    load.start();
    long started = System.nanoTime();
    // The crash lands after some traffic was acknowledged, at a random moment of the load: after
    // a random number more acknowledged calls (a count, not a time, so a fast machine waits no
    // longer than the traffic takes and a slow one still has the traffic).
    long extra = random.nextInt((int) MAX_EXTRA_UNARY);
    load.awaitProgress(MIN_UNARY + extra, MIN_STREAMS, Duration.ofSeconds(60));
    double loadSeconds = (System.nanoTime() - started) / 1e9;
    Phases.end("load");
    switch (scenario) {
      case "kill" -> {
        load.interrupted.set(true);
        long issued = System.nanoTime();
        service.kill();
        long returned = System.nanoTime();
        log("SIGKILL after %.1f s of load (%,d more calls acknowledged than the least)", loadSeconds, extra);
        load.awaitStopped();
        // The kill proves something only if it cut writes: calls never answered that were sent
        // before docker said the process was killed and ended after the kill was issued. The
        // moment the signal lands lies between; a bound on one side alone raced fast calls.
        long cut = load.cutAcross(issued, returned);
        log("%d RegisterPerson calls in flight when the process was killed", cut);
        if (cut == 0) {
          verdict.fail("the SIGKILL landed while no RegisterPerson was in flight", "");
        }
      }
      case "term" -> terminate(service, load, ledger, prefix, verdict, loadSeconds);
      default -> throw new IllegalArgumentException("scenario must be kill, term or disk, not " + scenario);
    }
    load.awaitStopped();
    log("the load stopped");
    Phases.end(scenario.equals("kill") ? "SIGKILL" : "SIGTERM and stop");
    verdict.failAll("a call failed before the " + scenario, load.unexpected());
    if (scenario.equals("term")) {
      // A clean stop refuses new calls (UNAVAILABLE) and finishes the others; nothing is cut.
      ledger.unary.stream().filter(u -> !u.acknowledged() && u.code() != Status.Code.UNAVAILABLE)
          .forEach(u -> verdict.fail("a RegisterPerson ended otherwise than OK or UNAVAILABLE at SIGTERM",
              u.person().getName() + " " + u.code()));
      ledger.streams.stream().filter(st -> st.state() == Ledger.StreamState.HALF_CLOSED
              || st.state() == Ledger.StreamState.OPEN && st.code() != Status.Code.UNAVAILABLE)
          .forEach(st -> verdict.fail("a RegisterPeople stream was cut at SIGTERM", st.requestId() + " " + st.state()
              + " " + st.code()));
    }
    log("load: %,d RegisterPerson acknowledged of %,d sent; streams: %d answered, %d half-closed unanswered, %d open"
            + " (%,d people in streams)",
        ledger.acknowledgedUnary(), ledger.unary.size(), ledger.streams(Ledger.StreamState.ANSWERED),
        ledger.streams(Ledger.StreamState.HALF_CLOSED), ledger.streams(Ledger.StreamState.OPEN),
        ledger.streams.stream().mapToLong(s -> s.people().size()).sum());

    service.start();
    log("restarted");
    Phases.end("restart");
    Map<String, List<Person>> stored = ReadBack.byName(service, prefix);
    log("after the restart: %,d people of the run stored", stored.size());
    Check.stored(ledger, stored, verdict);
    Phases.end("read back");
    Replay.all(service, ledger, verdict);
    log("replayed every call");
    Phases.end("replay");
    Check.complete(ledger, ReadBack.byName(service, prefix), verdict);
    Phases.end("read back again");
    return finish(scenario, store, verdict);
  }

  private static boolean finish(String scenario, String store, Verdict verdict) {
    log("%s on %s took: %s", scenario, store, Phases.summary());
    if (verdict.passed()) {
      log("PASS %s on %s: every acknowledged person stored once, as answered; every replay answered the same", scenario, store);
      return true;
    }
    verdict.lines().forEach(line -> log("FAIL %s on %s: %s", scenario, store, line));
    return false;
  }

  /**
   * SIGTERM while the load runs and a stream is open: the open stream goes on sending after the
   * signal and must be answered; calls made after it get UNAVAILABLE; the store closes before
   * the process exits, within the grace period.
   */
  private static void terminate(
      Service service, Load load, Ledger ledger, String prefix, Verdict verdict, double loadSeconds) throws Exception {
    ManagedChannel channel = service.channel();
    try {
      CompletableFuture<RegisterPeopleResponse> answer = new CompletableFuture<>();
      StreamObserver<RegisterPeopleRequest> open = service.authorized(PersonServiceGrpc.newStub(channel))
          .withDeadlineAfter(GRACE.toSeconds(), TimeUnit.SECONDS)
          .registerPeople(new StreamObserver<>() {
            @Override public void onNext(RegisterPeopleResponse value) { answer.complete(value); }
            @Override public void onError(Throwable t) { answer.completeExceptionally(t); }
            @Override public void onCompleted() {}
          });
      List<Person> people = new ArrayList<>();
      for (int j = 0; j < 20; j++) {
        people.add(Load.person(prefix + "drain-" + j, j));
      }
      String requestId = UUID.randomUUID().toString();
      for (int j = 0; j < 10; j++) {
        RegisterPeopleRequest.Builder m = RegisterPeopleRequest.newBuilder().setPerson(people.get(j));
        open.onNext((j == 0 ? m.setRequestId(requestId) : m).build());
      }
      Thread.sleep(300);
      load.interrupted.set(true);
      CompletableFuture<Duration> stopped = CompletableFuture.supplyAsync(() -> {
        try {
          return service.stop(GRACE);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      // The open stream goes on only once the service is stopping: once it refuses a new call.
      awaitRefusal(service, stopped, verdict);
      log("SIGTERM after %.1f s of load; the service refuses new calls, and the open stream goes on", loadSeconds);
      for (int j = 10; j < 20; j++) {
        open.onNext(RegisterPeopleRequest.newBuilder().setPerson(people.get(j)).build());
      }
      open.onCompleted();
      try {
        RegisterPeopleResponse stored = answer.get(GRACE.toSeconds(), TimeUnit.SECONDS);
        ledger.streams.add(new Ledger.Stream(requestId, people, Ledger.StreamState.ANSWERED, stored.getIdsList(), Status.Code.OK));
      } catch (Exception e) {
        ledger.streams.add(new Ledger.Stream(requestId, people, Ledger.StreamState.HALF_CLOSED, null, Status.Code.UNKNOWN));
        verdict.fail("the stream open at SIGTERM was not answered", Ledger.describe(e.getCause() == null ? e : e.getCause()));
      }
      Duration took = stopped.get(GRACE.toSeconds() + 60, TimeUnit.SECONDS);
      log("person-spring stopped %.1f s after SIGTERM", took.toMillis() / 1e3);
      if (took.compareTo(GRACE) > 0) {
        verdict.fail("the stop took longer than the grace period", took.toString());
      }
      String log = service.log();
      if (!log.contains("Completed gRPC server shutdown")) {
        verdict.fail("no graceful gRPC shutdown in the log", service.tail(5));
      }
      if (!log.contains(STORE_CLOSED)) {
        verdict.fail("the store did not say it closed", service.tail(5));
      }
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * Waits until a new call (GetPerson of nobody) is refused with UNAVAILABLE: the SIGTERM has
   * landed and the service is stopping. Until then it answers NOT_FOUND.
   */
  private static void awaitRefusal(Service service, CompletableFuture<Duration> stopped, Verdict verdict)
      throws InterruptedException {
    long deadline = System.nanoTime() + GRACE.toNanos();
    while (System.nanoTime() < deadline && !stopped.isDone()) {
      ManagedChannel probe = service.channel();
      try {
        service.authorized(PersonServiceGrpc.newBlockingStub(probe)).withDeadlineAfter(10, TimeUnit.SECONDS)
            .getPerson(GetPersonRequest.newBuilder().setId(UUID.randomUUID().toString()).build());
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.UNAVAILABLE) {
          return;
        }
        // A probe that outlived its deadline on a busy machine says nothing either way.
        if (e.getStatus().getCode() != Status.Code.NOT_FOUND && e.getStatus().getCode() != Status.Code.DEADLINE_EXCEEDED) {
          verdict.fail("a new call during SIGTERM ended otherwise than NOT_FOUND or UNAVAILABLE", Ledger.describe(e));
          return;
        }
      } finally {
        probe.shutdownNow();
      }
      Thread.sleep(50);
    }
    verdict.fail("no new call was refused with UNAVAILABLE after SIGTERM", stopped.isDone() ? "the service exited first" : "");
  }

  /** The line person-spring logs once its store has written everything and closed. */
  static final String STORE_CLOSED = "person store closed";

  private static String login() {
    ManagedChannel auth = NettyChannelBuilder.forTarget(env("AUTH_TARGET")).usePlaintext().build();
    try {
      return AuthServiceGrpc.newBlockingStub(auth).withDeadlineAfter(30, TimeUnit.SECONDS)
          .login(LoginRequest.newBuilder().setUsername(env("AUTH_ADMIN_USERNAME")).setPassword(env("AUTH_ADMIN_PASSWORD")).build())
          .getToken();
    } finally {
      auth.shutdownNow();
    }
  }

  static String env(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(name + " is not set: run this through scripts/tests/crash.sh");
    }
    return value;
  }

  /** When the scenario started: every line says how far into the scenario it is, so a slow phase shows. */
  private static volatile long scenarioStarted = System.nanoTime();

  static void log(String format, Object... args) {
    System.out.printf("[crash %6.1f s] %s%n", (System.nanoTime() - scenarioStarted) / 1e9, String.format(format, args));
  }
}
