package com.acme.crash.person;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The disk fails under the embedded store (crash.sh gives the H2 file a small file system of
 * its own): it fills up under writers (a file written from inside the container until nothing
 * is left) and is freed; then the service starts on the folder remounted read-only, and again
 * once it is writable. Every write ends OK, RESOURCE_EXHAUSTED or UNAVAILABLE (none OK while
 * read-only), the service says what happened in its log, reads go on while writes are refused,
 * and writes come back by themselves when space does. At the end the service is killed while
 * writes are in flight and started again, and everything acknowledged must be there, whole,
 * once (Check), and every request_id answered the same.
 */
final class DiskScenario {
  private static final long PROGRESS = 100;
  private static final long REFUSALS = 20;

  private DiskScenario() {}

  static void run(Service service, String prefix, Verdict verdict) throws Exception {
    String mount = CrashTest.env("CRASH_DATA_MOUNT");
    Ledger ledger = new Ledger();

    DiskWriters writers = new DiskWriters(service, ledger, prefix + "full-", 4);
    writers.start();
    try {
      expect(writers.awaitStored(PROGRESS, 180), "writes made no progress before the disk failed", verdict);
      CrashTest.log("filling the disk of %s", mount);
      service.exec("sh", "-c", "busybox dd if=/dev/zero of=/data/filler bs=1M 2>/dev/null; true");
      expect(writers.awaitRefused(REFUSALS, 120), "writes were not refused on a full disk", verdict);
      expect(service.log().contains("no space left on the device"), "no log line about the full disk", verdict);
      service.exec("busybox", "rm", "-f", "/data/filler");
      CrashTest.log("space returned; %,d writes refused meanwhile", writers.refused());
      expect(writers.awaitStored(PROGRESS, 180), "writes did not come back when space returned", verdict);
    } finally {
      writers.stop();
    }
    verdict.failAll("a write ended otherwise than OK, RESOURCE_EXHAUSTED or UNAVAILABLE", writers.unexpected);
    Phases.end("full disk");

    // A folder that is read-only when the service starts (files open for writing keep a file
    // system from being remounted read-only under a running service, so it is stopped first).
    service.stop(java.time.Duration.ofSeconds(30));
    root("mount", "-o", "remount,ro", mount);
    try {
      service.start();
      CrashTest.log("started on a read-only data folder");
      Phases.end("stop and start read-only");
      DiskWriters refused = new DiskWriters(service, ledger, prefix + "ro-", 2);
      refused.start();
      try {
        expect(refused.awaitRefused(REFUSALS, 120), "writes were not refused on a read-only folder", verdict);
        expect(refused.count(io.grpc.Status.Code.OK) == 0, "a write was acknowledged on a read-only folder", verdict);
        expect(service.log().contains("read-only"), "no log line about the read-only folder", verdict);
        readBack(service, prefix + "full-", ledger, verdict);
      } finally {
        refused.stop();
      }
      verdict.failAll("a write ended otherwise than OK, RESOURCE_EXHAUSTED or UNAVAILABLE", refused.unexpected);
      Phases.end("writes refused");
      service.stop(java.time.Duration.ofSeconds(30));
    } finally {
      root("mount", "-o", "remount,rw", mount);
    }
    service.start();
    CrashTest.log("started on a writable data folder again");
    Phases.end("stop and start writable");
    DiskWriters again = new DiskWriters(service, ledger, prefix + "rw-", 2);
    again.start();
    long issued;
    long returned;
    try {
      expect(again.awaitStored(PROGRESS, 180), "writes did not come back on a writable folder", verdict);
      // The kill lands under these writers: it proves something only if it cuts writes.
      issued = System.nanoTime();
      service.kill();
      returned = System.nanoTime();
    } finally {
      again.stop();
    }
    verdict.failAll("a write ended otherwise than OK, RESOURCE_EXHAUSTED or UNAVAILABLE", again.unexpected);
    long cut = again.cutAcross(issued, returned);
    CrashTest.log("writes: %,d acknowledged, %,d refused; SIGKILL with %d in flight, and restart",
        ledger.acknowledgedUnary(), ledger.unary.size() - ledger.acknowledgedUnary(), cut);
    expect(cut > 0, "the SIGKILL landed while no RegisterPerson was in flight", verdict);
    Phases.end("writes and SIGKILL");
    service.start();
    CrashTest.log("restarted");
    Phases.end("restart");
    Check.stored(ledger, ReadBack.byName(service, prefix), verdict);
    Phases.end("read back");
    Replay.all(service, ledger, verdict);
    CrashTest.log("replayed every call");
    Phases.end("replay");
    Check.complete(ledger, ReadBack.byName(service, prefix), verdict);
    Phases.end("read back again");
  }

  /** The people acknowledged before (named prefix…) are read while writes are refused. */
  private static void readBack(Service service, String prefix, Ledger ledger, Verdict verdict) {
    long acknowledged = ledger.acknowledgedUnary();
    java.util.Map<String, java.util.List<com.acme.person.v1.Person>> stored;
    try {
      stored = ReadBack.byName(service, prefix);
    } catch (RuntimeException e) {
      verdict.fail("reads failed on a read-only folder", Ledger.describe(e));
      return;
    }
    if (stored.size() < acknowledged) {
      verdict.fail("reads on a read-only folder miss acknowledged people", stored.size() + " of " + acknowledged);
    }
  }

  private static void expect(boolean held, String failure, Verdict verdict) {
    if (!held) {
      verdict.fail(failure, "");
    }
  }

  /** A command as root on this machine (CRASH_AS_ROOT: empty when we are root, else sudo). */
  private static void root(String... command) throws IOException, InterruptedException {
    List<String> args = new ArrayList<>();
    String asRoot = System.getenv().getOrDefault("CRASH_AS_ROOT", "");
    if (!asRoot.isBlank()) {
      args.add(asRoot);
    }
    args.addAll(List.of(command));
    Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", args) + " failed: " + out);
    }
  }
}
