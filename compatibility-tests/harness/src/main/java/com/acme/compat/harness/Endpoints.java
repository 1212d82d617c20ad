package com.acme.compat.harness;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * A topology the cases run on, however it was started: where the clients reach each service,
 * the admin they log in as, and person-spring's database for the row checks. The harness's own
 * Testcontainers topology (Topology) is one; a system started by make up (RunningSystem) is
 * another. Which one a run uses, and what it cannot offer, is features.yaml's topologies.
 */
interface Endpoints extends AutoCloseable {

  /** Starts it when the harness owns it; a running system is up already. */
  void start();

  /** host:port of auth-node's gRPC (and gRPC-Web, Connect) port. */
  String authTarget();

  /** host:port of auth-node's REST/JSON twin. */
  String authRestTarget();

  /** host:port of person-spring's gRPC port. */
  String personTarget();

  /** host:port of person-spring's REST/JSON twin. */
  String personRestTarget();

  /** host:port of person-spring's web proxy (Connect and gRPC-Web). */
  String webProxyTarget();

  /** The origin a browser client's page is served from, the one the proxy and auth-node allow. */
  String pageOrigin();

  /** host:port of Zipkin's HTTP API (where a trace step reads traces); null without one. */
  String zipkinTarget();

  String adminUsername();

  String adminPassword();

  /**
   * person-spring's database once every case and fault has run, opened from the host, for the
   * row checks: the rows themselves, not the service's answers about them.
   */
  PersonDatabase personDatabase() throws SQLException;

  /** The services' logs, for a failure's post-mortem (a topology whose logs are elsewhere says where). */
  void saveLogs(Path logDir) throws IOException;

  @Override
  void close();
}
