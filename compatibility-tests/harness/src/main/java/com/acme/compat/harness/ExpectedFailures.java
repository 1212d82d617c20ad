package com.acme.compat.harness;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * expected-failures.yaml: a list of {case, reason}, and optionally topologies (the topologies of
 * features.yaml where the gap shows; every one when absent). Every entry needs a reason, and
 * every case must be one the matrix runs — an entry for a case that no longer exists is stale
 * and fails the run, like an entry whose case passes.
 */
record ExpectedFailures(Map<String, String> reasons, Map<String, List<String>> topologies) {

  ExpectedFailures(Map<String, String> reasons) {
    this(reasons, Map.of());
  }

  static ExpectedFailures load(Path file) throws IOException {
    Object root;
    try (Reader in = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    }
    Map<String, String> reasons = new LinkedHashMap<>();
    Map<String, List<String>> topologies = new LinkedHashMap<>();
    if (!(root instanceof List<?> entries)) {
      throw new IllegalArgumentException("expected-failures.yaml must be a list (use [] for none)");
    }
    for (Object entry : entries) {
      if (!(entry instanceof Map<?, ?> m)
          || !(m.get("case") instanceof String key)
          || !(m.get("reason") instanceof String reason)
          || reason.isBlank()
          || m.size() != (m.containsKey("topologies") ? 3 : 2)
          || !((m.containsKey("topologies") ? m.get("topologies") : List.of("every")) instanceof List<?> where)
          || where.isEmpty()
          || where.stream().anyMatch(t -> !(t instanceof String))) {
        throw new IllegalArgumentException(
            "expected-failures.yaml: every entry is {case: client/server/protocol/feature, reason: why,"
                + " and optionally topologies: [name, …]}; got " + entry);
      }
      if (reasons.put(key, reason.strip()) != null) {
        throw new IllegalArgumentException("expected-failures.yaml lists " + key + " twice");
      }
      if (m.containsKey("topologies")) {
        topologies.put(key, where.stream().map(String.class::cast).toList());
      }
    }
    return new ExpectedFailures(reasons, topologies);
  }

  /** The entries that hold on this topology: those naming it, and those naming none. */
  ExpectedFailures on(String topology) {
    Map<String, String> only = new LinkedHashMap<>();
    reasons.forEach((key, reason) -> {
      if (!topologies.containsKey(key) || topologies.get(key).contains(topology)) {
        only.put(key, reason);
      }
    });
    return new ExpectedFailures(only, topologies);
  }

  /** Every topology an entry names, to check each is one features.yaml declares. */
  Set<String> topologyNames() {
    Set<String> names = new LinkedHashSet<>();
    topologies.values().forEach(names::addAll);
    return names;
  }

  /** The entries about clients built on released SDKs ("client@version/…"): a released-only run judges just those. */
  ExpectedFailures released() {
    Map<String, String> only = new LinkedHashMap<>();
    reasons.forEach((key, reason) -> {
      if (key.substring(0, Math.max(0, key.indexOf('/'))).contains("@")) {
        only.put(key, reason);
      }
    });
    return new ExpectedFailures(only, topologies);
  }

  boolean lists(String key) {
    return reasons.containsKey(key);
  }

  String reason(String key) {
    return reasons.get(key);
  }
}
