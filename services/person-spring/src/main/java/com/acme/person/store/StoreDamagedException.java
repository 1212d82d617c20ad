package com.acme.person.store;

import java.nio.file.Path;

/** A file of the store is damaged: the service names it and refuses to start. */
public class StoreDamagedException extends RuntimeException {
  private final Path file;

  public StoreDamagedException(Path file, String what, Throwable cause) {
    super("the person store's file " + file + " is damaged: " + what, cause);
    this.file = file;
  }

  public Path file() {
    return file;
  }
}
