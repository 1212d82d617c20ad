package com.acme.person.store;

import java.time.Instant;

/** The last person a ListPeople stream sent: the next read starts after it (keyset paging). */
public record PageCursor(Instant createdAt, String id) {}
