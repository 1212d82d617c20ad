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
 * features.yaml: which server speaks which protocols and offers which features, and which of
 * them each client covers. Read strictly — an unknown key, protocol or feature is an error, so a
 * typo cannot silently drop a column from the matrix.
 */
record Config(Map<String, Server> servers, Map<String, Client> clients, List<String> faults) {

  static final Set<String> PROTOCOLS = Set.of("grpc", "grpc-web", "connect");
  static final Set<String> FAULTS = Set.of("auth-outage");

  record Server(String name, String image, List<String> protocols, List<String> features) {}

  record Client(
      String name, Path dir, List<String> protocols, List<String> features, boolean golden) {}

  static Config load(Path file) throws IOException {
    Map<String, Object> root;
    try (Reader in = Files.newBufferedReader(file)) {
      root = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
    }
    keys(root, "features.yaml", "servers", "clients", "faults");
    Map<String, Server> servers = new LinkedHashMap<>();
    map(root.get("servers"), "servers")
        .forEach(
            (name, value) -> {
              Map<String, Object> s = map(value, "servers." + name);
              keys(s, "servers." + name, "image", "protocols", "features");
              servers.put(
                  name,
                  new Server(
                      name,
                      string(s.get("image"), name + ".image"),
                      protocols(s.get("protocols"), name),
                      strings(s.get("features"), name + ".features")));
            });
    Set<String> offered = new LinkedHashSet<>();
    servers.values().forEach(s -> offered.addAll(s.features()));

    Map<String, Client> clients = new LinkedHashMap<>();
    map(root.get("clients"), "clients")
        .forEach(
            (name, value) -> {
              Map<String, Object> c = map(value, "clients." + name);
              keys(c, "clients." + name, "dir", "protocols", "features", "golden");
              List<String> features = strings(c.get("features"), name + ".features");
              for (String f : features) {
                if (!offered.contains(f)) {
                  throw new IllegalArgumentException(
                      "features.yaml: client " + name + " declares " + f + ", which no server offers");
                }
              }
              clients.put(
                  name,
                  new Client(
                      name,
                      file.getParent().resolve(string(c.get("dir"), name + ".dir")),
                      protocols(c.get("protocols"), name),
                      features,
                      Boolean.TRUE.equals(c.get("golden"))));
            });
    List<String> faults = strings(root.getOrDefault("faults", List.of()), "faults");
    for (String f : faults) {
      if (!FAULTS.contains(f)) {
        throw new IllegalArgumentException("features.yaml: unknown fault " + f + "; known: " + FAULTS);
      }
    }
    return new Config(servers, clients, faults);
  }

  /** The features a client runs against a server: the server's order, the client's choice. */
  List<String> featuresOf(Client client, Server server) {
    List<String> out = new ArrayList<>(server.features());
    out.retainAll(client.features());
    return out;
  }

  List<String> protocolsOf(Client client, Server server) {
    List<String> out = new ArrayList<>(server.protocols());
    out.retainAll(client.protocols());
    return out;
  }

  List<Client> goldenClients() {
    return clients.values().stream().filter(Client::golden).toList();
  }

  private static List<String> protocols(Object value, String owner) {
    List<String> protocols = strings(value, owner + ".protocols");
    for (String p : protocols) {
      if (!PROTOCOLS.contains(p)) {
        throw new IllegalArgumentException(
            "features.yaml: " + owner + " has unknown protocol " + p + "; known: " + PROTOCOLS);
      }
    }
    return protocols;
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
