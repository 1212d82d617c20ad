package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

/**
 * A system the harness did not start — make up (scripts/system/up.sh), for example SCALE=3:
 * replicas behind the balancer on one PostgreSQL. Its endpoints are read from the file make up
 * writes beside its data (SYSTEM_DIR/endpoints.env), the one place that says where the running
 * system answers; the harness starts, stops and owns nothing of it.
 */
final class RunningSystem implements Endpoints {

  private final Map<String, String> env;
  private final Path file;

  private RunningSystem(Path file, Map<String, String> env) {
    this.file = file;
    this.env = env;
  }

  static RunningSystem load(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(file + " is missing: is the system up (make up)?");
    }
    RunningSystem system = new RunningSystem(file, EnvFile.read(file));
    // Every endpoint the matrix needs, checked before the first session rather than in one.
    for (String key : new String[] {"AUTH_TARGET", "AUTH_REST_TARGET", "PERSON_TARGET", "PERSON_REST_TARGET",
        "WEB_PROXY_TARGET", "PAGE_ORIGIN", "ADMIN_USERNAME", "ADMIN_PASSWORD_FILE"}) {
      system.require(key);
    }
    return system;
  }

  private String require(String key) {
    String value = env.get(key);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException(file + " gives no " + key
          + (key.equals("PAGE_ORIGIN") ? " (make up allows a test's page only when TEST_PAGE_PORT is set)" : ""));
    }
    return value;
  }

  @Override
  public void start() {}

  @Override
  public String authTarget() {
    return require("AUTH_TARGET");
  }

  @Override
  public String authRestTarget() {
    return require("AUTH_REST_TARGET");
  }

  @Override
  public String personTarget() {
    return require("PERSON_TARGET");
  }

  @Override
  public String personRestTarget() {
    return require("PERSON_REST_TARGET");
  }

  @Override
  public String webProxyTarget() {
    return require("WEB_PROXY_TARGET");
  }

  @Override
  public String pageOrigin() {
    return require("PAGE_ORIGIN");
  }

  @Override
  public String zipkinTarget() {
    String target = env.get("ZIPKIN_TARGET");
    return target == null || target.isBlank() ? null : target;
  }

  @Override
  public String adminUsername() {
    return require("ADMIN_USERNAME");
  }

  @Override
  public String adminPassword() {
    return secret("ADMIN_PASSWORD_FILE");
  }

  /**
   * The shared PostgreSQL, read while the replicas run: every case has ended by now, and each
   * call's rows were committed before it was answered.
   */
  @Override
  public PersonDatabase personDatabase() throws SQLException {
    return new PersonDatabase(require("PERSON_DATABASE_URL"), require("PERSON_DATABASE_USER"),
        secret("PERSON_DATABASE_PASSWORD_FILE"));
  }

  private String secret(String key) {
    try {
      return Files.readString(Path.of(require(key))).strip();
    } catch (IOException e) {
      throw new IllegalStateException(file + ": cannot read " + key + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void saveLogs(Path logDir) throws IOException {
    // Its containers are not the harness's: the script that started the system keeps their logs.
    Files.writeString(logDir.resolve("system.txt"),
        "the services ran in a system the harness did not start (" + file + "); their logs are kept by its script\n");
  }

  @Override
  public void close() {}
}
