package com.acme.compat;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import io.grpc.StatusRuntimeException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs features and prints one JSON line per feature on stdout, the only thing a golden mode
 * prints there (logs go to stderr). A failing or crashing feature becomes a "fail" line, so one
 * feature never stops the others.
 */
final class Report {
  // disableHtmlEscaping: details quote server messages; keep them readable ("=" not "\u003d").
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();
  private final PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);

  void run(String feature, Feature body) {
    long started = System.nanoTime();
    String detail = "";
    try {
      body.run();
    } catch (CheckFailed e) {
      detail = e.getMessage();
    } catch (StatusRuntimeException e) {
      // A call that was expected to succeed failed: name its status, as a check would.
      detail = "unexpected " + Checks.describe(e);
      e.printStackTrace();
    } catch (Exception | LinkageError | AssertionError e) {
      detail = "crashed: " + e;
      e.printStackTrace();
    }
    if (detail.isEmpty() && Thread.currentThread().isInterrupted()) {
      detail = "interrupted";
    }
    print(feature, detail, (System.nanoTime() - started) / 1_000_000);
  }

  void fail(String feature, String detail) {
    print(feature, detail, 0);
  }

  private void print(String feature, String detail, long ms) {
    JsonObject line = new JsonObject();
    line.addProperty("feature", feature);
    line.addProperty("result", detail.isEmpty() ? "pass" : "fail");
    line.addProperty("detail", detail);
    line.addProperty("ms", ms);
    out.println(GSON.toJson(line));
    System.err.printf("%s: %s %s%n", feature, detail.isEmpty() ? "pass" : "FAIL", detail);
  }
}
