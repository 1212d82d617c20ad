package com.acme.person;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * A test class run again on the "postgres" profile against a real PostgreSQL server.
 * scripts/services/test-person-postgres.sh starts a throwaway cluster, sets
 * PERSON_TEST_POSTGRES_URL and fails if these tests were skipped; without it (the H2 run) they
 * are skipped.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@EnabledIfEnvironmentVariable(named = "PERSON_TEST_POSTGRES_URL", matches = ".+")
@ActiveProfiles("postgres")
@TestPropertySource(properties = {
  "spring.datasource.url=${PERSON_TEST_POSTGRES_URL}",
  "spring.datasource.username=${PERSON_TEST_POSTGRES_USER}",
  "spring.datasource.password=${PERSON_TEST_POSTGRES_PASSWORD}"
})
public @interface PostgresProfile {}
