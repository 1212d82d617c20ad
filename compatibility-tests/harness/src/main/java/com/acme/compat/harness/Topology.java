package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * The production shape, in Testcontainers: auth-node and person-spring on one private network,
 * person-spring calling auth-node by its network alias — so every authenticated person call
 * crosses Java → Node — and the clients reaching both through mapped ports. Images are the
 * locally built ones and are never pulled. The benchmarks (benchmarks/) start the services
 * through this class too, so there is one definition of how they run.
 */
public final class Topology implements Endpoints {

  /** The alias person-spring's AUTH_ADDRESS (person-spring.env) names. */
  static final String AUTH_ALIAS = "auth-node";
  static final int AUTH_PORT = 50051;
  static final int AUTH_REST_PORT = 8081;
  static final int PERSON_PORT = 9090;
  static final int PERSON_REST_PORT = 8080;
  /** The alias web-proxy's WEB_PROXY_ROUTES (web-proxy.env) names. */
  static final String PERSON_ALIAS = "person-spring";
  static final int WEB_PROXY_PORT = 8088;
  /** The trace backend's alias and port: Zipkin's span intake and its HTTP API on one port. */
  static final String ZIPKIN_ALIAS = "zipkin";
  static final int ZIPKIN_PORT = 9411;
  /** Where both services send their spans (each reads its own variable of this name). */
  static final String ZIPKIN_SPANS = "http://" + ZIPKIN_ALIAS + ":" + ZIPKIN_PORT + "/api/v2/spans";

  private static final String AUTH_READY = ".*\"auth service listening\".*";
  // How long a container may take to start: topology.sh's TOPOLOGY_START_SECONDS, read here too
  // so both ways of starting the topology give a loaded machine the same time.
  private static final Duration START =
      Duration.ofSeconds(Long.parseLong(System.getenv().getOrDefault("TOPOLOGY_START_SECONDS", "300")));

  public final String adminUsername;
  public final String adminPassword = "compat-" + UUID.randomUUID();
  /** person-spring's deadline on each ValidateToken call; the fault test holds it to this. */
  final Duration authDeadline;
  private final Network network = Network.newNetwork();
  private final GenericContainer<?> auth;
  private final GenericContainer<?> person;
  /** person-spring's web proxy: Connect and gRPC-Web from a browser, translated into gRPC. */
  private final GenericContainer<?> webProxy;
  /** Where a browser client serves its page from: the one origin the proxy and auth-node allow. */
  private final String pageOrigin;
  private final Path dbDir;
  /** Zipkin, which both services export to, when features.yaml names a tracing image; else null. */
  private final GenericContainer<?> zipkin;

  /**
   * Settings from compatibility-tests/{auth-node,person-spring}.env and the containers' limits
   * from containers.env, which topology.sh reads too. dbDir must be empty: person-spring keeps its H2 database there, so the harness can
   * count rows in the real database once the service has stopped.
   */
  Topology(Config config, Path envDir, Path dbDir) throws IOException {
    this(config, envDir, dbDir, Map.of(), Map.of(), config.tracing());
  }

  /**
   * The topology of the repository at root (its compatibility-tests folder), with settings
   * overridden for this use (the benchmarks make tokens live longer than a run, for example).
   */
  public static Topology of(Path root, Path dbDir, Map<String, String> authSettings, Map<String, String> personSettings)
      throws IOException {
    Path envDir = root.resolve("compatibility-tests");
    // No trace backend here: the benchmarks measure the services as they run without one.
    return new Topology(Config.load(envDir.resolve("features.yaml")), envDir, dbDir, authSettings, personSettings, null);
  }

  private Topology(
      Config config, Path envDir, Path dbDir, Map<String, String> authSettings, Map<String, String> personSettings,
      String tracingImage) throws IOException {
    Map<String, String> authEnv = new LinkedHashMap<>(EnvFile.read(envDir.resolve("auth-node.env")));
    Map<String, String> personEnv = new LinkedHashMap<>(EnvFile.read(envDir.resolve("person-spring.env")));
    authEnv.putAll(authSettings);
    personEnv.putAll(personSettings);
    Map<String, String> limits = EnvFile.read(envDir.resolve("containers.env"));
    Map<String, String> webProxyEnv = new LinkedHashMap<>(EnvFile.read(envDir.resolve("web-proxy.env")));
    pageOrigin = "http://127.0.0.1:" + freePort();
    webProxyEnv.put("WEB_PROXY_ALLOWED_ORIGINS", pageOrigin);
    authEnv.put("AUTH_CORS_ALLOWED_ORIGINS", pageOrigin);
    adminUsername = EnvFile.require(authEnv, "AUTH_ADMIN_USERNAME");
    authDeadline = Duration.ofMillis(Long.parseLong(EnvFile.require(personEnv, "AUTH_DEADLINE_MS")));
    this.dbDir = dbDir;
    if (tracingImage != null) {
      authEnv.put("AUTH_TRACING_ZIPKIN_ENDPOINT", ZIPKIN_SPANS);
      personEnv.put("TRACING_ZIPKIN_ENDPOINT", ZIPKIN_SPANS);
      zipkin =
          new GenericContainer<>(DockerImageName.parse(tracingImage))
              .withImagePullPolicy(name -> false)
              .withNetwork(network)
              .withNetworkAliases(ZIPKIN_ALIAS)
              .withExposedPorts(ZIPKIN_PORT)
              .withCreateContainerCmdModifier(memory(EnvFile.require(limits, "ZIPKIN_MEMORY")))
              .waitingFor(Wait.forHttp("/health").forPort(ZIPKIN_PORT).forStatusCode(200).withStartupTimeout(START));
    } else {
      zipkin = null;
    }
    // The service runs as uid 1000.
    Files.setPosixFilePermissions(dbDir, PosixFilePermissions.fromString("rwxrwxrwx"));

    auth =
        new GenericContainer<>(image(config, "auth-node"))
            .withImagePullPolicy(name -> false)
            .withNetwork(network)
            .withNetworkAliases(AUTH_ALIAS)
            .withExposedPorts(AUTH_PORT, AUTH_REST_PORT)
            .withEnv(authEnv)
            .withCreateContainerCmdModifier(memory(EnvFile.require(limits, "AUTH_NODE_MEMORY")))
            .withEnv("AUTH_ADMIN_PASSWORD", adminPassword)
            .waitingFor(Wait.forLogMessage(AUTH_READY, 1).withStartupTimeout(START));
    person =
        new GenericContainer<>(image(config, "person-spring"))
            .withImagePullPolicy(name -> false)
            .withNetwork(network)
            .withNetworkAliases(PERSON_ALIAS)
            .withExposedPorts(PERSON_PORT, PERSON_REST_PORT)
            .withEnv(personEnv)
            .withCreateContainerCmdModifier(memory(EnvFile.require(limits, "PERSON_SPRING_MEMORY")))
            .withEnv("DB_URL", "jdbc:h2:file:/data/person")
            .withFileSystemBind(dbDir.toString(), "/data", BindMode.READ_WRITE)
            .waitingFor(
                Wait.forLogMessage(".*Started PersonSpringApplication.*", 1)
                    .withStartupTimeout(START));
    webProxy =
        new GenericContainer<>(DockerImageName.parse(webProxyImage(config)))
            .withImagePullPolicy(name -> false)
            .withNetwork(network)
            .withExposedPorts(WEB_PROXY_PORT)
            .withEnv(webProxyEnv)
            .withCreateContainerCmdModifier(memory(EnvFile.require(limits, "WEB_PROXY_MEMORY")))
            .waitingFor(Wait.forLogMessage(".*\"web proxy listening\".*", 1).withStartupTimeout(START));
  }

  private static String webProxyImage(Config config) {
    Config.Server spec = config.servers().get("person-spring");
    if (spec == null || spec.webProxy() == null) {
      throw new IllegalArgumentException("features.yaml declares no web-proxy for person-spring");
    }
    return spec.webProxy();
  }

  /** A port nothing listens on now: the browser's page takes it once the topology is up. */
  private static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The container's memory limit, in docker's notation (512m, 1g): containers.env. */
  private static java.util.function.Consumer<com.github.dockerjava.api.command.CreateContainerCmd> memory(String limit) {
    long bytes = DataSizes.bytes(limit);
    return cmd -> cmd.getHostConfig().withMemory(bytes);
  }

  private static DockerImageName image(Config config, String server) {
    Config.Server spec = config.servers().get(server);
    if (spec == null) {
      throw new IllegalArgumentException("features.yaml declares no server " + server);
    }
    return DockerImageName.parse(spec.image());
  }

  @Override
  public void start() {
    // Zipkin first: the services' first spans (the admin's login) then have somewhere to go.
    if (zipkin != null) {
      zipkin.start();
    }
    auth.start();
    person.start();
    webProxy.start();
  }

  @Override
  public String authTarget() {
    return target(auth, AUTH_PORT);
  }

  @Override
  public String authRestTarget() {
    return target(auth, AUTH_REST_PORT);
  }

  @Override
  public String personTarget() {
    return target(person, PERSON_PORT);
  }

  @Override
  public String webProxyTarget() {
    return target(webProxy, WEB_PROXY_PORT);
  }

  @Override
  public String pageOrigin() {
    return pageOrigin;
  }

  @Override
  public String zipkinTarget() {
    return zipkin == null ? null : target(zipkin, ZIPKIN_PORT);
  }

  @Override
  public String personRestTarget() {
    return target(person, PERSON_REST_PORT);
  }

  @Override
  public String adminUsername() {
    return adminUsername;
  }

  @Override
  public String adminPassword() {
    return adminPassword;
  }

  /** Its H2 file, once person-spring has stopped gracefully (stopPerson). */
  @Override
  public PersonDatabase personDatabase() throws java.sql.SQLException {
    return PersonDatabase.h2(stopPerson());
  }

  /** The running containers' names, for docker stats. */
  public String authContainer() {
    return auth.getContainerName().replaceFirst("^/", "");
  }

  public String personContainer() {
    return person.getContainerName().replaceFirst("^/", "");
  }

  private static String target(GenericContainer<?> container, int port) {
    // "localhost" may resolve to ::1 first; the mapped ports listen on IPv4.
    String host = container.getHost().equals("localhost") ? "127.0.0.1" : container.getHost();
    return host + ":" + container.getMappedPort(port);
  }

  /** docker stop: SIGTERM, auth-node drains and exits. The container (and its data) stays. */
  void stopAuth() {
    auth.getDockerClient().stopContainerCmd(auth.getContainerId()).withTimeout(10).exec();
  }

  /** docker start of the same container: same alias, same users and signing key. */
  void startAuth(Duration timeout) {
    // The container's log holds every start; wait for one more "listening" line than now.
    int starts = (int) auth.getLogs().lines().filter(l -> l.matches(AUTH_READY)).count();
    auth.getDockerClient().startContainerCmd(auth.getContainerId()).exec();
    Wait.forLogMessage(AUTH_READY, starts + 1).withStartupTimeout(timeout).waitUntilReady(auth);
  }

  /**
   * Stops person-spring gracefully (SIGTERM: open calls drain, the database closes) and returns
   * the folder that holds its H2 database.
   */
  Path stopPerson() {
    person.getDockerClient().stopContainerCmd(person.getContainerId()).withTimeout(40).exec();
    if (!person.getLogs().contains("Completed gRPC server shutdown")) {
      throw new IllegalStateException("person-spring did not shut down gracefully");
    }
    return dbDir;
  }

  /** Both services' logs (every start of the container), for a failure's post-mortem. */
  @Override
  public void saveLogs(Path logDir) throws IOException {
    Files.writeString(logDir.resolve("auth-node.container.log"), auth.getLogs());
    Files.writeString(logDir.resolve("person-spring.container.log"), person.getLogs());
    Files.writeString(logDir.resolve("web-proxy.container.log"), webProxy.getLogs());
    if (zipkin != null) {
      Files.writeString(logDir.resolve("zipkin.container.log"), zipkin.getLogs());
    }
  }

  @Override
  public void close() {
    webProxy.stop();
    person.stop();
    auth.stop();
    if (zipkin != null) {
      zipkin.stop();
    }
    network.close();
  }
}
