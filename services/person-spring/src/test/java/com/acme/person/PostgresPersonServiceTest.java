package com.acme.person;

import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * Every PersonServiceTest again, on the "postgres" profile against a real PostgreSQL server.
 * scripts/services/test-person-postgres.sh starts a throwaway cluster, sets PERSON_TEST_POSTGRES_URL
 * and fails if these tests were skipped; without it (the H2 run) they are skipped.
 */
@EnabledIfEnvironmentVariable(named = "PERSON_TEST_POSTGRES_URL", matches = ".+")
@ActiveProfiles("postgres")
@TestPropertySource(properties = {
  "spring.datasource.url=${PERSON_TEST_POSTGRES_URL}",
  "spring.datasource.username=${PERSON_TEST_POSTGRES_USER}",
  "spring.datasource.password=${PERSON_TEST_POSTGRES_PASSWORD}"
})
class PostgresPersonServiceTest extends PersonServiceTest {}
