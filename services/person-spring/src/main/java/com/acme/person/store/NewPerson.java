package com.acme.person.store;

import com.acme.person.domain.PersonDto;

/**
 * A person to insert with its id (created_at is stamped at insert), and, when it came with a
 * request_id, the request_id and the fingerprint of what was sent (hex), stored beside it in
 * the same transaction.
 */
public record NewPerson(PersonDto person, String requestId, String requestHash) {}
