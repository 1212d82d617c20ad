package com.acme.compat.harness;

/**
 * One cell of the matrix: a client, the server (or "golden"/"faults"), the protocol (or the
 * golden phase), a feature, and what happened. Its key is what expected-failures.yaml lists.
 */
record Case(
    String client, String server, String protocol, String feature, boolean passed, String detail, long ms) {

  String key() {
    return key(client, server, protocol, feature);
  }

  static String key(String client, String server, String protocol, String feature) {
    return client + "/" + server + "/" + protocol + "/" + feature;
  }
}
