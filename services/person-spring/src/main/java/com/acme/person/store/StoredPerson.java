package com.acme.person.store;

import com.acme.person.domain.PersonDto;

/**
 * A person just inserted, as the journal keeps it: its seq (the embedded store's key), the
 * person with id and created_at, and the request_id and fingerprint it came with (null if none).
 */
public record StoredPerson(long seq, PersonDto person, String requestId, String requestHash) {}
