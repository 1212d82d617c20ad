package com.acme.person;

/** Every ConcurrentRegistrationTest again, on PostgreSQL (see PostgresProfile). */
@PostgresProfile
class PostgresConcurrentRegistrationTest extends ConcurrentRegistrationTest {}
