package com.acme.person;

/** Every ListPeoplePagingTest again, on PostgreSQL (see PostgresProfile). */
@PostgresProfile
class PostgresListPeoplePagingTest extends ListPeoplePagingTest {}
