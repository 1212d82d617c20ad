package com.acme.person.domain;

/** No person has the requested id. */
public class PersonNotFoundException extends RuntimeException {
  public PersonNotFoundException(String id) {
    super("no person with id " + id);
  }
}
