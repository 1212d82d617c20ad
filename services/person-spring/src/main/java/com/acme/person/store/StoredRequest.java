package com.acme.person.store;

import com.acme.person.domain.PersonDto;

/**
 * The person first stored under a request_id, and the fingerprint of what was sent then (hex of
 * its 16 bytes).
 */
public record StoredRequest(PersonDto person, String requestHash) {}
