package com.acme.person.store;

import java.util.List;

/**
 * A committed RegisterPeople stream that carried a request_id: its fingerprint (hex of its 16
 * bytes), its size, and the ids it was answered with in order — null when there were more than
 * RegisterPeopleResponse lists.
 */
public record StoredStream(String requestHash, long count, List<String> ids) {}
