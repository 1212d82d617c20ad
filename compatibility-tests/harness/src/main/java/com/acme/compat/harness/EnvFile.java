package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A docker --env-file: KEY=VALUE lines, taken literally (no quotes, no expansion), with blank
 * and # lines ignored — read the same way docker reads it for topology.sh.
 */
final class EnvFile {
  private EnvFile() {}

  static Map<String, String> read(Path file) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(file + ": not KEY=VALUE: " + line);
      }
      env.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return env;
  }

  static String require(Map<String, String> env, String key) {
    String value = env.get(key);
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException("the topology's env file must set " + key);
    }
    return value;
  }
}
