package com.example.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The generated contracts work with their runtimes: stubs, validation rules, the version. */
class ContractsTest {
  @Test
  void theGeneratedServiceHasItsMethods() {
    assertTrue(Contracts.personServiceMethods().contains("RegisterPerson"), Contracts.personServiceMethods().toString());
  }

  @Test
  void theContractsRulesApply() throws Exception {
    assertTrue(Contracts.validPerson("Ada", 36));
    assertFalse(Contracts.validPerson("", 200));
  }

  @Test
  void itSaysWhichContractsItWasBuiltAgainst() {
    assertTrue(Contracts.build().startsWith("acme contracts v"), Contracts.build());
    assertEquals(40, com.example.service.contracts.ContractsVersion.COMMIT.length());
  }
}
