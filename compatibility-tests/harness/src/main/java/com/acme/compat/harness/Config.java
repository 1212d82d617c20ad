package com.acme.compat.harness;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * features.yaml: which protocols and capabilities each server offers and each client's executor
 * has. Read strictly — an unknown key, protocol or capability is an error, so a typo cannot
 * silently drop a column from the matrix.
 */
public record Config(
    Map<String, Server> servers, Map<String, Client> clients, List<String> faults, String tracing,
    Map<String, TopologySpec> topologies) {

  /** rest: a service's REST/JSON twin, reached by the harness's own HTTP client (RestStep). */
  static final Set<String> PROTOCOLS = Set.of("grpc", "grpc-web", "connect", "rest");
  static final Set<String> FAULTS = Set.of("auth-outage");
  static final Set<String> CAPABILITIES = Set.of(
      "unary", "client-stream", "server-stream", "bidi", "metadata", "deadline", "cancel",
      "error-details", "unknown-fields", "rest-twin", "trace-context");

  /**
   * A server; webProxy, when set, is the image that translates the protocols a browser speaks
   * into the server's own (webProtocols), for browser clients only. A server without one is
   * called by pages directly, and the harness checks on every run that a page's HTTP/1.1
   * preflight reaches it (BrowserReach).
   */
  record Server(
      String name, String image, List<String> protocols, List<String> capabilities, String webProxy,
      List<String> webProtocols) {
    Server(String name, String image, List<String> protocols, List<String> capabilities) {
      this(name, image, protocols, capabilities, null, List.of());
    }
  }

  /**
   * A client: its executor's folder (run.sh), or none when the harness itself is the client
   * (harness: true — the REST twins' HTTP client, which has no SDK of ours to run). A browser
   * client reaches a server the way a page does: directly where the server speaks its
   * protocol, through the server's web proxy where it does not. cannot names the capabilities
   * it lacks, each with the reason, which the matrix prints for the cases it skips.
   */
  record Client(
      String name, Path dir, List<String> protocols, List<String> capabilities, boolean golden, boolean browser,
      Map<String, String> cannot) {
    Client(String name, Path dir, List<String> protocols, List<String> capabilities, boolean golden) {
      this(name, dir, protocols, capabilities, golden, false, Map.of());
    }

    boolean harness() {
      return dir == null;
    }
  }

  /** The topology a run uses unless COMPAT_TOPOLOGY names another: the one the harness starts itself. */
  static final String DEFAULT_TOPOLOGY = "harness";

  /**
   * A topology the matrix runs on (features.yaml topologies). harnessStarts: the harness starts
   * it in Testcontainers and owns its containers; otherwise it is a running system whose
   * endpoints the harness reads (RunningSystem). notApplicable: what it cannot offer —
   * "fault/NAME", "case/SERVER/CASE" or "capability/NAME" (every case that requires it) — each
   * with the reason the matrix prints for what it therefore does not run.
   */
  record TopologySpec(String name, boolean harnessStarts, Map<String, String> notApplicable) {

    /** Why a case cannot run on this topology; null when it can. */
    String notApplicable(String server, String caseName, List<String> requires) {
      String key = "case/" + server + "/" + caseName;
      if (notApplicable.containsKey(key)) {
        return key + ": " + notApplicable.get(key);
      }
      return requires.stream().map(c -> "capability/" + c).filter(notApplicable::containsKey).findFirst()
          .map(c -> c + ": " + notApplicable.get(c)).orElse(null);
    }

    /** Why a fault cannot run on this topology; null when it can. */
    String faultNotApplicable(String fault) {
      String key = "fault/" + fault;
      return notApplicable.containsKey(key) ? key + ": " + notApplicable.get(key) : null;
    }

    /** The case/SERVER/CASE entries that name no case of the library: stale, so refused. */
    List<String> unknownCases(List<CaseLibrary.Spec> library) {
      return notApplicable.keySet().stream().filter(k -> k.startsWith("case/"))
          .filter(k -> library.stream().noneMatch(c -> k.equals("case/" + c.server() + "/" + c.name())))
          .toList();
    }
  }

  TopologySpec topology(String name) {
    TopologySpec spec = topologies.get(name);
    if (spec == null) {
      throw new IllegalArgumentException("features.yaml declares no topology " + name + "; known: " + topologies.keySet());
    }
    return spec;
  }

  static Config load(Path file) throws IOException {
    Map<String, Object> root;
    try (Reader in = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    }
    keys(root, "features.yaml", "servers", "clients", "faults", "tracing", "topologies");
    Map<String, Server> servers = new LinkedHashMap<>();
    map(root.get("servers"), "servers")
        .forEach(
            (name, value) -> {
              Map<String, Object> s = map(value, "servers." + name);
              keys(s, "servers." + name, "image", "protocols", "capabilities", "web-proxy");
              String webProxy = null;
              List<String> webProtocols = List.of();
              if (s.containsKey("web-proxy")) {
                Map<String, Object> w = map(s.get("web-proxy"), "servers." + name + ".web-proxy");
                keys(w, "servers." + name + ".web-proxy", "image", "protocols");
                webProxy = imageWithTag(string(w.get("image"), name + ".web-proxy.image"));
                webProtocols = protocols(w.get("protocols"), name + ".web-proxy");
              }
              servers.put(
                  name,
                  new Server(
                      name,
                      imageWithTag(string(s.get("image"), name + ".image")),
                      protocols(s.get("protocols"), name),
                      capabilities(s.get("capabilities"), name),
                      webProxy,
                      webProtocols));
            });

    Map<String, Client> clients = new LinkedHashMap<>();
    map(root.get("clients"), "clients")
        .forEach(
            (name, value) -> {
              Map<String, Object> c = map(value, "clients." + name);
              keys(c, "clients." + name, "dir", "harness", "protocols", "capabilities", "golden", "browser", "cannot");
              boolean harness = Boolean.TRUE.equals(c.get("harness"));
              if (harness == c.containsKey("dir")) {
                throw new IllegalArgumentException("features.yaml: clients." + name + " needs either dir or harness: true");
              }
              List<String> capabilities = capabilities(c.get("capabilities"), name);
              Map<String, String> cannot = new LinkedHashMap<>();
              map(c.getOrDefault("cannot", Map.of()), "clients." + name + ".cannot").forEach((capability, reason) -> {
                known(List.of(capability), name + ".cannot", "capability", CAPABILITIES);
                if (capabilities.contains(capability)) {
                  throw new IllegalArgumentException("features.yaml: " + name + " both has and cannot " + capability);
                }
                cannot.put(capability, string(reason, name + ".cannot." + capability));
              });
              clients.put(
                  name,
                  new Client(
                      name,
                      harness ? null : file.getParent().resolve(string(c.get("dir"), name + ".dir")),
                      protocols(c.get("protocols"), name),
                      capabilities,
                      Boolean.TRUE.equals(c.get("golden")),
                      Boolean.TRUE.equals(c.get("browser")),
                      cannot));
            });
    List<String> faults = strings(root.getOrDefault("faults", List.of()), "faults");
    for (String f : faults) {
      if (!FAULTS.contains(f)) {
        throw new IllegalArgumentException("features.yaml: unknown fault " + f + "; known: " + FAULTS);
      }
    }
    // The trace backend the topology runs beside the services (its HTTP API is what a trace step
    // reads); unset, the services export nothing and no case may ask for a trace.
    String tracing = null;
    if (root.containsKey("tracing")) {
      Map<String, Object> t = map(root.get("tracing"), "tracing");
      keys(t, "tracing", "image");
      tracing = imageWithTag(string(t.get("image"), "tracing.image"));
    }
    return new Config(servers, clients, faults, tracing, topologies(root.get("topologies"), faults));
  }

  /** features.yaml topologies; without the key, only the one the harness starts itself. */
  private static Map<String, TopologySpec> topologies(Object value, List<String> faults) {
    Map<String, TopologySpec> out = new LinkedHashMap<>();
    if (value == null) {
      out.put(DEFAULT_TOPOLOGY, new TopologySpec(DEFAULT_TOPOLOGY, true, Map.of()));
      return out;
    }
    map(value, "topologies").forEach((name, v) -> {
      String where = "topologies." + name;
      Map<String, Object> t = map(v, where);
      keys(t, where, "start", "not-applicable");
      String start = string(t.get("start"), where + ".start");
      if (!start.equals("harness") && !start.equals("system")) {
        throw new IllegalArgumentException("features.yaml: " + where + ".start must be harness or system, not " + start);
      }
      Map<String, String> notApplicable = new LinkedHashMap<>();
      map(t.getOrDefault("not-applicable", Map.of()), where + ".not-applicable").forEach((what, reason) -> {
        String[] parts = what.split("/", -1);
        boolean known = switch (parts[0]) {
          case "fault" -> parts.length == 2 && faults.contains(parts[1]);
          case "capability" -> parts.length == 2 && CAPABILITIES.contains(parts[1]);
          case "case" -> parts.length == 3 && !parts[1].isEmpty() && !parts[2].isEmpty();
          default -> false;
        };
        if (!known) {
          throw new IllegalArgumentException("features.yaml: " + where + ".not-applicable names " + what
              + ", which is no fault/NAME of faults, capability/NAME or case/SERVER/CASE");
        }
        notApplicable.put(what, string(reason, where + ".not-applicable." + what));
      });
      out.put(name, new TopologySpec(name, start.equals("harness"), notApplicable));
    });
    if (!out.containsKey(DEFAULT_TOPOLOGY) || !out.get(DEFAULT_TOPOLOGY).harnessStarts()) {
      throw new IllegalArgumentException("features.yaml: topologies needs " + DEFAULT_TOPOLOGY + " with start: harness");
    }
    return out;
  }

  /** Whether both sides have every capability a case requires. */
  static boolean canRun(Client client, Server server, List<String> requires) {
    return client.capabilities().containsAll(requires) && server.capabilities().containsAll(requires);
  }

  /**
   * The protocols the client runs the server's cases over: those both speak, and for a browser
   * client also those the server's web proxy translates.
   */
  List<String> protocolsOf(Client client, Server server) {
    List<String> out = new ArrayList<>(server.protocols());
    if (client.browser()) {
      server.webProtocols().stream().filter(p -> !out.contains(p)).forEach(out::add);
    }
    out.retainAll(client.protocols());
    return out;
  }

  /** Why the client cannot run a case that requires these capabilities; null when it can. */
  static String cannot(Client client, List<String> requires) {
    return requires.stream().filter(client.cannot()::containsKey).findFirst()
        .map(c -> c + ": " + client.cannot().get(c)).orElse(null);
  }

  List<Client> goldenClients() {
    return clients.values().stream().filter(Client::golden).toList();
  }

  private static List<String> protocols(Object value, String owner) {
    return known(value, owner, "protocol", PROTOCOLS);
  }

  private static List<String> capabilities(Object value, String owner) {
    return known(value, owner, "capability", CAPABILITIES);
  }

  /** A list of names, each one of the known ones. */
  private static List<String> known(Object value, String owner, String what, Set<String> known) {
    List<String> names = strings(value, owner + "." + (what.equals("protocol") ? "protocols" : "capabilities"));
    for (String name : names) {
      if (!known.contains(name)) {
        throw new IllegalArgumentException(
            "features.yaml: " + owner + " has unknown " + what + " " + name + "; known: " + known);
      }
    }
    return names;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value, String where) {
    if (!(value instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException("features.yaml: " + where + " must be a mapping");
    }
    return (Map<String, Object>) m;
  }

  private static void keys(Map<String, Object> map, String where, String... allowed) {
    Set<String> unknown = new LinkedHashSet<>(map.keySet());
    unknown.removeAll(List.of(allowed));
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(where + ": unknown keys " + unknown);
    }
  }

  /**
   * features.yaml names each image without a tag; the tag is scripts/lib.sh's ACME_IMAGE_TAG
   * (latest unless set), so a checkout that builds its images under its own tag runs them here.
   */
  public static String imageWithTag(String repository) {
    if (repository.contains(":")) {
      throw new IllegalArgumentException("features.yaml: image " + repository + " must name no tag (ACME_IMAGE_TAG sets it)");
    }
    String tag = System.getenv().getOrDefault("ACME_IMAGE_TAG", "");
    return repository + ":" + (tag.isBlank() ? "latest" : tag);
  }

  private static String string(Object value, String where) {
    if (!(value instanceof String s) || s.isBlank()) {
      throw new IllegalArgumentException("features.yaml: " + where + " must be a non-empty string");
    }
    return s;
  }

  private static List<String> strings(Object value, String where) {
    if (!(value instanceof List<?> list) || list.stream().anyMatch(v -> !(v instanceof String))) {
      throw new IllegalArgumentException("features.yaml: " + where + " must be a list of names");
    }
    List<String> out = list.stream().map(String.class::cast).toList();
    if (new LinkedHashSet<>(out).size() != out.size()) {
      throw new IllegalArgumentException("features.yaml: " + where + " names something twice");
    }
    return out;
  }
}
