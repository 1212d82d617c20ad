package com.acme.crash.person;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The disk fails under the embedded store while writers keep writing (crash.sh gives the H2
 * file a small file system of its own): first it fills up (a file written from inside the
 * container until nothing is left), then that file is deleted; then the file system turns
 * read-only (remounted), then writable again. Meanwhile every write ends OK, RESOURCE_EXHAUSTED
 * or UNAVAILABLE, the service says what happened in its log, and writes come back when the disk
 * does. At the end the service is killed and started again, and everything
 * acknowledged must be there, whole, once (Check), and every request_id answered the same.
 */
final class DiskScenario {
  private static final long PROGRESS = 100;
  private static final long REFUSALS = 20;

  private DiskScenario() {}

  static void run(Service service, String prefix, Verdict verdict) throws Exception {
    String mount = CrashTest.env("CRASH_DATA_MOUNT");
    Ledger ledger = new Ledger();
    DiskWriters writers = new DiskWriters(service, ledger, prefix, 4);
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

      CrashTest.log("the data folder turns read-only");
      root("mount", "-o", "remount,ro", mount);
      try {
        expect(writers.awaitRefused(REFUSALS, 120), "writes were not refused on a read-only folder", verdict);
        expect(service.log().contains("read-only"), "no log line about the read-only folder", verdict);
      } finally {
        root("mount", "-o", "remount,rw", mount);
      }
      expect(writers.awaitStored(PROGRESS, 180), "writes did not come back when the folder was writable", verdict);
    } finally {
      writers.stop();
    }
    verdict.failAll("a write ended otherwise than OK, RESOURCE_EXHAUSTED or UNAVAILABLE", writers.unexpected);
    CrashTest.log("writes: %,d acknowledged, %,d refused; SIGKILL and restart", ledger.acknowledgedUnary(), writers.refused());
    service.kill();
    service.start();
    Check.stored(ledger, ReadBack.byName(service, prefix), verdict);
    Replay.all(service, ledger, verdict);
    Check.complete(ledger, ReadBack.byName(service, prefix), verdict);
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
