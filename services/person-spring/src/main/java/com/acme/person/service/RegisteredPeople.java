package com.acme.person.service;

import java.util.List;

/** What a committed RegisterPeople stream stored: the count, and the ids when not omitted. */
public record RegisteredPeople(long count, List<String> ids) {
  public boolean idsOmitted() {
    return ids == null;
  }
}
