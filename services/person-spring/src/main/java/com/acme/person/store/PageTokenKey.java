package com.acme.person.store;

/**
 * The secret ListPeople's page tokens are signed with, made once by the schema's migration and
 * kept in the database: tokens outlive a restart, and every replica on one PostgreSQL signs
 * alike.
 */
public record PageTokenKey(byte[] secret) {}
