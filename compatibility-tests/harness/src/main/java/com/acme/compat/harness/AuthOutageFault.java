package com.acme.compat.harness;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import com.acme.person.v1.Person;
import com.acme.person.v1.PersonServiceGrpc;
import com.acme.person.v1.PersonServiceGrpc.PersonServiceBlockingStub;
import com.acme.person.v1.RegisterPersonRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The auth-outage fault: person-spring is kept busy with RegisterPerson calls while the harness
 * stops the auth-node container, waits, and starts it again. person-spring must answer
 * UNAVAILABLE within its auth deadline while auth-node is gone, must recover on its own (nothing
 * restarts it), and — once every failed call has been retried with its request_id — every person
 * must be in the database exactly once. The database side is checked after person-spring has
 * stopped ({@link #checkDatabase}).
 */
final class AuthOutageFault {

  static final String FAULT = "auth-outage";
  private static final Duration OUTAGE = Duration.ofSeconds(6);
  private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(30);
  /** Allowance over person-spring's auth deadline for the hop from client to person-spring. */
  private static final Duration SLACK = Duration.ofMillis(1000);
  private static final int WORKERS = 2;

  /** One RegisterPerson call as the client saw it. */
  private record Call(String requestId, Status.Code code, long startNanos, long endNanos, String id) {
    long millis() {
      return (endNanos - startNanos) / 1_000_000;
    }
  }

  private final String marker;
  private final Map<String, Person> people = Collections.synchronizedMap(new LinkedHashMap<>());
  private final Map<String, String> storedIds = Collections.synchronizedMap(new LinkedHashMap<>());

  AuthOutageFault(String runId) {
    this.marker = runId + " outage ";
  }

  List<Case> run(Topology topology) throws InterruptedException {
    List<Case> cases = new ArrayList<>();
    ManagedChannel authChannel = NettyChannelBuilder.forTarget(topology.authTarget()).usePlaintext().build();
    ManagedChannel personChannel = NettyChannelBuilder.forTarget(topology.personTarget()).usePlaintext().build();
    try {
      String token =
          AuthServiceGrpc.newBlockingStub(authChannel)
              .withDeadlineAfter(10, TimeUnit.SECONDS)
              .login(
                  LoginRequest.newBuilder()
                      .setUsername(topology.adminUsername)
                      .setPassword(topology.adminPassword)
                      .build())
              .getToken();
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
      PersonServiceBlockingStub stub =
          PersonServiceGrpc.newBlockingStub(personChannel)
              .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));

      List<Call> calls = Collections.synchronizedList(new ArrayList<>());
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger seq = new AtomicInteger();
      List<Thread> workers = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        Thread worker =
            new Thread(
                () -> {
                  while (!stop.get()) {
                    calls.add(register(stub, UUID.randomUUID().toString(), seq.incrementAndGet()));
                  }
                });
        worker.start();
        workers.add(worker);
      }

      Thread.sleep(2000);
      topology.stopAuth();
      long outageStart = System.nanoTime();
      Thread.sleep(OUTAGE.toMillis());
      long outageEnd = System.nanoTime();
      topology.startAuth(Duration.ofSeconds(60));
      long restarted = System.nanoTime();
      long recoveredAt = awaitRecovery(calls, restarted);
      Thread.sleep(1000);
      stop.set(true);
      for (Thread t : workers) {
        t.join();
      }

      List<Call> all;
      synchronized (calls) {
        all = List.copyOf(calls);
      }
      cases.add(duringOutage(all, outageStart, outageEnd, topology.authDeadline));
      cases.add(otherCodes(all));
      cases.add(recovery(restarted, recoveredAt));
      cases.add(retryFailed(stub, all));
    } catch (RuntimeException e) {
      cases.add(fail("run", "the fault run itself failed: " + e));
    } finally {
      authChannel.shutdownNow();
      personChannel.shutdownNow();
    }
    return cases;
  }

  private Call register(PersonServiceBlockingStub stub, String requestId, int n) {
    Person person = people.computeIfAbsent(requestId, k -> Person.newBuilder().setName(marker + n).setAge(n % 150).build());
    long start = System.nanoTime();
    try {
      String id =
          stub.withDeadlineAfter(10, TimeUnit.SECONDS)
              .registerPerson(RegisterPersonRequest.newBuilder().setRequestId(requestId).setPerson(person).build())
              .getPerson()
              .getId();
      storedIds.put(requestId, id);
      return new Call(requestId, Status.Code.OK, start, System.nanoTime(), id);
    } catch (StatusRuntimeException e) {
      return new Call(requestId, e.getStatus().getCode(), start, System.nanoTime(), null);
    }
  }

  /** The end time of the first successful call that started after auth-node was back, or -1. */
  private static long awaitRecovery(List<Call> calls, long restarted) throws InterruptedException {
    long limit = restarted + RECOVERY_LIMIT.toNanos();
    while (System.nanoTime() < limit) {
      synchronized (calls) {
        for (Call c : calls) {
          if (c.code() == Status.Code.OK && c.startNanos() >= restarted) {
            return c.endNanos();
          }
        }
      }
      Thread.sleep(50);
    }
    return -1;
  }

  private static Case duringOutage(List<Call> all, long outageStart, long outageEnd, Duration authDeadline) {
    List<Call> inside = all.stream().filter(c -> c.startNanos() >= outageStart && c.endNanos() <= outageEnd).toList();
    long slowest = inside.stream().mapToLong(Call::millis).max().orElse(0);
    long unavailable = inside.stream().filter(c -> c.code() == Status.Code.UNAVAILABLE).count();
    long limit = authDeadline.plus(SLACK).toMillis();
    String detail =
        inside.size() + " calls while auth-node was stopped: " + unavailable + " UNAVAILABLE, slowest "
            + slowest + " ms (limit " + limit + " ms)";
    boolean ok = inside.size() >= 3 && unavailable == inside.size() && slowest <= limit;
    return new Case("harness", "faults", "grpc", FAULT + ":unavailable-within-deadline", ok, detail, 0);
  }

  private static Case otherCodes(List<Call> all) {
    Map<Status.Code, Integer> codes = new LinkedHashMap<>();
    all.forEach(c -> codes.merge(c.code(), 1, Integer::sum));
    boolean ok = codes.keySet().stream().allMatch(c -> c == Status.Code.OK || c == Status.Code.UNAVAILABLE);
    return new Case("harness", "faults", "grpc", FAULT + ":only-ok-or-unavailable", ok, all.size() + " calls: " + codes, 0);
  }

  private static Case recovery(long restarted, long recoveredAt) {
    boolean ok = recoveredAt > 0;
    String detail =
        ok
            ? "first success " + (recoveredAt - restarted) / 1_000_000 + " ms after auth-node listened again"
            : "no successful call within " + RECOVERY_LIMIT.toSeconds() + " s of auth-node's restart";
    return new Case("harness", "faults", "grpc", FAULT + ":recovers", ok, detail, 0);
  }

  /** Every call that failed is retried with its request_id until it succeeds (idempotent). */
  private Case retryFailed(PersonServiceBlockingStub stub, List<Call> all) throws InterruptedException {
    List<String> failed = all.stream().filter(c -> c.code() != Status.Code.OK).map(Call::requestId).toList();
    List<String> stillFailing = new ArrayList<>();
    for (String requestId : failed) {
      Call last = null;
      for (int attempt = 0; attempt < 20 && (last == null || last.code() != Status.Code.OK); attempt++) {
        if (last != null) {
          Thread.sleep(250);
        }
        last = register(stub, requestId, 0);
      }
      if (last.code() != Status.Code.OK) {
        stillFailing.add(requestId + " (" + last.code() + ")");
      }
    }
    boolean ok = stillFailing.isEmpty();
    String detail =
        failed.size() + " failed calls retried with their request_id"
            + (ok ? ", all stored" : "; still failing: " + stillFailing);
    return new Case("harness", "faults", "grpc", FAULT + ":retries-succeed", ok, detail, 0);
  }

  /** After person-spring stopped: every person of the run is in the table, exactly once. */
  Case checkDatabase(PersonDatabase db) throws java.sql.SQLException {
    var rows = db.idsWithNamePrefix(marker);
    var acknowledged = new java.util.HashSet<>(storedIds.values());
    boolean ok = rows.equals(acknowledged) && acknowledged.size() == people.size();
    String detail =
        people.size() + " people sent, " + acknowledged.size() + " acknowledged, " + rows.size()
            + " rows in the database" + (rows.equals(acknowledged) ? " (the same ids)" : " (ids differ)");
    return new Case("harness", "faults", "db", FAULT + ":no-loss-no-duplicate", ok, detail, 0);
  }

  private static Case fail(String what, String detail) {
    return new Case("harness", "faults", "grpc", FAULT + ":" + what, false, detail, 0);
  }
}
