package com.acme.person;

/** Every PersonServiceTest again, on PostgreSQL (see PostgresProfile). */
@PostgresProfile
class PostgresPersonServiceTest extends PersonServiceTest {}
