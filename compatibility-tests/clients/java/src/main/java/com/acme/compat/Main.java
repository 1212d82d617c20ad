package com.acme.compat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The Java client of the compatibility tests (compatibility-tests/README.md): the executor of
 * the harness's cases, and the golden wire vectors.
 */
public final class Main {
  private static final String USAGE = """
      usage: run.sh exec                 (Steps on stdin, Outcomes on stdout)
             run.sh golden-encode --vectors FILE --out DIR
             run.sh golden-decode --vectors FILE --peer NAME --in DIR""";

  private Main() {}

  public static void main(String[] args) throws Exception {
    int status;
    try {
      status = run(args);
    } catch (UsageError e) {
      System.err.println("error: " + e.getMessage());
      System.err.println(USAGE);
      status = 2;
    }
    System.out.flush();
    // gRPC's threads must not keep the JVM alive once every feature is reported.
    System.exit(status);
  }

  private static final class UsageError extends Exception {
    UsageError(String message) {
      super(message);
    }
  }

  private static int run(String[] args) throws Exception {
    if (args.length == 0) {
      throw new UsageError("no mode");
    }
    Map<String, String> options = options(Arrays.copyOfRange(args, 1, args.length));
    Report report = new Report();
    switch (args[0]) {
      case "exec" -> {
        // The executor speaks the framed protocol on stdin and stdout; it reports nothing.
        try (Executor executor = new Executor()) {
          executor.serve(System.in, System.out);
        }
      }
      case "golden-encode" -> {
        var vectors = Vectors.load(Path.of(required(options, "vectors")));
        Path out = Files.createDirectories(Path.of(required(options, "out")));
        GoldenEncode encode = new GoldenEncode(vectors, out);
        report.run("golden-binary", encode::binary);
        report.run("golden-json", encode::json);
        report.run("golden-unknown-fields", encode::unknownFields);
      }
      case "golden-decode" -> {
        var vectors = Vectors.load(Path.of(required(options, "vectors")));
        Path in = Path.of(required(options, "in"));
        System.err.println("golden-decode of what " + required(options, "peer") + " wrote in " + in);
        report.run("golden-decode", new GoldenDecode(vectors, in)::run);
      }
      default -> throw new UsageError("unknown mode " + args[0]);
    }
    return 0;
  }

  private static Map<String, String> options(String[] args) throws UsageError {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new UsageError("expected --option value, got " + String.join(" ", Arrays.copyOfRange(args, i, args.length)));
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) throws UsageError {
    String value = options.get(name);
    if (value == null || value.isEmpty()) {
      throw new UsageError("missing --" + name);
    }
    return value;
  }
}
