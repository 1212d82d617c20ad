package com.acme.person.domain;

/**
 * Which people ListPeople returns: a name filter, an optional age range and one page.
 * minAge and maxAge are null when unbounded; limit is already resolved (never 0).
 */
public record PersonFilter(String nameContains, Integer minAge, Integer maxAge, int page, int limit) {

  /** The page size used when a request asks for 0. */
  public static final int DEFAULT_LIMIT = 100;

  public long offset() {
    return (long) page * limit;
  }
}
