package com.acme.compat;

/** The environment the harness sets for a live run (README: the driver contract). */
record Env(
    String personTarget,
    String authTarget,
    String adminUsername,
    String adminPassword,
    String runId,
    String nextDescriptors) {

  static Env fromSystem() {
    return new Env(
        System.getenv("PERSON_TARGET"),
        System.getenv("AUTH_TARGET"),
        System.getenv("AUTH_ADMIN_USERNAME"),
        System.getenv("AUTH_ADMIN_PASSWORD"),
        System.getenv("COMPAT_RUN_ID"),
        System.getenv("COMPAT_NEXT_DESCRIPTORS"));
  }

  /** A variable a feature needs; missing, the feature fails naming it. */
  static String require(String value, String name) {
    Checks.that(value != null && !value.isEmpty(), name + " is not set");
    return value;
  }
}
