package com.acme.person.store;

import java.nio.file.Path;

/**
 * Which database the service stores people in, read from its JDBC URL: the embedded H2 in a
 * file (the default), H2 in memory (tests), or PostgreSQL. What differs between them — how
 * pages are read, what makes a commit survive a crash — is chosen from this, in one place.
 */
public record StoreKind(Vendor vendor, Path file) {

  public enum Vendor {
    H2_FILE,
    H2_MEMORY,
    POSTGRESQL
  }

  public static StoreKind of(String jdbcUrl) {
    if (jdbcUrl.startsWith("jdbc:postgresql:")) {
      return new StoreKind(Vendor.POSTGRESQL, null);
    }
    if (jdbcUrl.startsWith("jdbc:h2:mem:")) {
      return new StoreKind(Vendor.H2_MEMORY, null);
    }
    if (jdbcUrl.startsWith("jdbc:h2:")) {
      String path = jdbcUrl.substring("jdbc:h2:".length());
      path = path.startsWith("file:") ? path.substring("file:".length()) : path;
      int options = path.indexOf(';');
      path = options < 0 ? path : path.substring(0, options);
      if (path.startsWith("~")) {
        path = System.getProperty("user.home") + path.substring(1);
      }
      return new StoreKind(Vendor.H2_FILE, Path.of(path + ".mv.db").toAbsolutePath());
    }
    throw new IllegalArgumentException("the person store runs on H2 or PostgreSQL, not " + jdbcUrl);
  }

  public boolean h2() {
    return vendor != Vendor.POSTGRESQL;
  }

  /** The embedded database's file (person.mv.db), or null when there is none. */
  @Override
  public Path file() {
    return file;
  }

  /** The file beside the embedded store's databaseFile (person.mv.db) named person + suffix. */
  static Path beside(Path databaseFile, String suffix) {
    String name = databaseFile.getFileName().toString().replaceFirst("\\.mv\\.db$", "");
    return databaseFile.resolveSibling(name + suffix);
  }
}
