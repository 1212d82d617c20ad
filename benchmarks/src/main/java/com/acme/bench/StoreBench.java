package com.acme.bench;

import com.acme.auth.v1.AuthServiceGrpc;
import com.acme.auth.v1.LoginRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The store's benchmarks, against a person-spring container that scripts/bench/store.sh started
 * with compatibility-tests/topology.sh (the embedded H2 file in a host folder, or PostgreSQL on
 * this machine), one configuration per run:
 *
 * <ul>
 *   <li>writers LABEL OUT full|smoke — people stored per second by 8 and by 100 concurrent
 *       RegisterPerson writers (StoreWriters);
 *   <li>million LABEL OUT full|smoke — a directory of 1,000,000 people (smoke: 20,000, deep page
 *       2 instead of 50): disk, searches, deep pages, listing (MillionPeople);
 *   <li>million,writers LABEL OUT smoke — both on one topology, in that order (the smoke's
 *       way to prove the machinery without a second service start; writers come last so their
 *       people do not count in the directory's bytes on disk).
 * </ul>
 *
 * The figures go to OUT (results.json's row format); report.py puts them beside the others.
 */
public final class StoreBench {
  static final int[] WRITERS = {8, 100};
  /** Unrecorded writes at each writer count before a full run's first measured repetition. */
  static final int WARM_UP_SECONDS = 20;

  private StoreBench() {}

  /** The running service and its store, as the script describes them in the environment. */
  static final class Env {
    final Container container = new Container(require("PERSON_CONTAINER"));
    final String token = login();
    final String store = require("STORE_KIND");

    /** Bytes the store takes on disk: H2's file (and journal), or PostgreSQL's tables and indexes. */
    long storedBytes() throws Exception {
      if (store.equals("h2")) {
        long bytes = 0;
        try (var files = Files.list(Path.of(require("TOPOLOGY_DATA")))) {
          for (Path f : files.toList()) {
            if (f.getFileName().toString().startsWith("person.")) {
              bytes += Files.size(f);
            }
          }
        }
        return bytes;
      }
      try (Connection c = DriverManager.getConnection(require("PG_JDBC_URL"), require("PG_USER"), require("PG_PASSWORD"));
          ResultSet rs = c.createStatement().executeQuery("SELECT pg_total_relation_size('person')"
              + " + pg_total_relation_size('register_person_request') + pg_total_relation_size('register_people_request')")) {
        rs.next();
        return rs.getLong(1);
      }
    }

    /** After a bulk load PostgreSQL's planner needs the tables' statistics (autovacuum takes a minute). */
    void analyze() throws Exception {
      if (store.equals("postgres")) {
        try (Connection c = DriverManager.getConnection(require("PG_JDBC_URL"), require("PG_USER"), require("PG_PASSWORD"))) {
          c.createStatement().execute("ANALYZE");
        }
      }
    }

    /** The service's resident memory (the JVM, PID 1 in its container), in MB. */
    double residentMb() throws Exception {
      String status = External.run(List.of("docker", "exec", require("PERSON_CONTAINER"), "cat", "/proc/1/status"), Map.of());
      for (String line : status.lines().toList()) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
      throw new IllegalStateException("no VmRSS in /proc/1/status");
    }
  }

  public static void main(String[] args) throws Exception {
    String what = args[0];
    String label = args[1];
    Path out = Path.of(args[2]);
    boolean full = args[3].equals("full");
    Env env = new Env();
    Results results = new Results();
    for (String measurement : what.split(",")) {
      switch (measurement) {
        case "writers" -> {
          StoreWriters writers = new StoreWriters(env.container.target(), env.token);
          int reps = full ? 3 : 1;
          if (full) {
            // A freshly started service is still compiling its write path, so unwarmed repetitions
            // grow faster one after the other and their median measures the JIT, not the store.
            // The smaller count first: 100 writers at once on a cold service can run its token
            // checks past their deadline.
            for (int w : WRITERS) {
              double rate = writers.run(w, 0, WARM_UP_SECONDS);
              log("%s: warm-up, %d writers for %d s: %,.0f people stored/s (not recorded)", label, w,
                  WARM_UP_SECONDS, rate);
            }
          }
          for (int rep = 1; rep <= reps; rep++) {
            for (int w : WRITERS) {
              double rate = writers.run(w, full ? 3 : 1, full ? 15 : 2);
              results.add("store", label, "writers", w, "stored", "people/s", rep, rate);
              log("%s: %d writers: %,.0f people stored/s (rep %d)", label, w, rate, rep);
            }
          }
        }
        case "million" -> {
          MillionPeople million = new MillionPeople(env, results, label);
          million.run(full ? 1_000_000 : 20_000, full ? 20 : 3, full ? 50 : 2);
        }
        default -> throw new IllegalArgumentException("writers, million or both (comma-separated), not " + measurement);
      }
    }
    results.write(out);
  }

  static <S extends AbstractStub<S>> S authorized(S stub, String token) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static String login() {
    ManagedChannel auth = Services.channel(require("AUTH_TARGET"));
    try {
      return AuthServiceGrpc.newBlockingStub(auth).withDeadlineAfter(60, TimeUnit.SECONDS)
          .login(LoginRequest.newBuilder().setUsername(require("AUTH_ADMIN_USERNAME")).setPassword(require("AUTH_ADMIN_PASSWORD")).build())
          .getToken();
    } finally {
      auth.shutdownNow();
    }
  }

  private static String require(String name) {
    String value = System.getenv(name);
    if (value == null || value.isEmpty()) {
      throw new IllegalStateException(name + " is not set: run this through scripts/bench/store.sh");
    }
    return value;
  }

  static void log(String format, Object... args) {
    System.err.printf("[store-bench] " + format + "%n", args);
  }
}
