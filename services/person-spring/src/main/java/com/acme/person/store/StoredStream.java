package com.acme.person.store;

/** A committed RegisterPeople stream that carried a request_id: its fingerprint and size. */
public record StoredStream(String requestHash, long count) {}
