-- The person registry made compact, for PostgreSQL (a few hundred bytes a person on disk where
-- it took more than 1 KB): ids are uuid (16 bytes, not 36 characters); hobbies live in the
-- person's row as an array instead of a row (and an index entry) each; the idempotency records
-- move to tables of their own, so people stored without a request_id carry none of their
-- columns. ListPeople pages by (created_at, id); name_contains is served by a trigram index.
CREATE TABLE person_v3 (
    id         uuid        NOT NULL PRIMARY KEY,
    name       text        NOT NULL,
    age        integer     NOT NULL,
    city       text,
    zip_code   text,
    hobbies    text[]      NOT NULL,
    created_at timestamptz NOT NULL
);
INSERT INTO person_v3 (id, name, age, city, zip_code, hobbies, created_at)
SELECT p.id::uuid, p.name, p.age, p.city, p.zip_code,
       COALESCE((SELECT array_agg(h.hobby ORDER BY h.position) FROM person_hobby h WHERE h.person_id = p.id), '{}'),
       p.created_at
FROM person p;

-- RegisterPerson and SyncPeople's request_ids: the person a request_id stored, and the first
-- 128 bits of the SHA-256 of the person as sent (a retry sends the same person).
CREATE TABLE register_person_request (
    request_id   uuid  NOT NULL PRIMARY KEY,
    request_hash bytea NOT NULL,
    person_id    uuid  NOT NULL
);
INSERT INTO register_person_request (request_id, request_hash, person_id)
SELECT request_id::uuid, decode(substr(request_hash, 1, 32), 'hex'), id::uuid
FROM person WHERE request_id IS NOT NULL;

-- RegisterPeople's request_ids: a committed stream's fingerprint, size and the ids it was
-- answered with, in order (NULL for a stream of more than 10,000 people, answered without ids).
CREATE TABLE register_people_request_v3 (
    request_id   uuid        NOT NULL PRIMARY KEY,
    request_hash bytea       NOT NULL,
    person_count bigint      NOT NULL,
    ids          uuid[],
    created_at   timestamptz NOT NULL
);
INSERT INTO register_people_request_v3 (request_id, request_hash, person_count, ids, created_at)
SELECT r.request_id::uuid, decode(substr(r.request_hash, 1, 32), 'hex'), r.person_count,
       CASE WHEN r.person_count <= 10000 THEN
         (SELECT array_agg(p.id::uuid ORDER BY p.stream_position) FROM person p WHERE p.stream_request_id = r.request_id)
       END,
       r.created_at
FROM register_people_request r;

DROP TABLE person_hobby;
DROP TABLE person;
DROP TABLE register_people_request;
ALTER TABLE person_v3 RENAME TO person;
ALTER TABLE person RENAME CONSTRAINT person_v3_pkey TO person_pkey;
ALTER TABLE register_people_request_v3 RENAME TO register_people_request;
ALTER TABLE register_people_request RENAME CONSTRAINT register_people_request_v3_pkey TO register_people_request_pkey;

-- ListPeople pages in (created_at, id) order.
CREATE INDEX person_created_at_id ON person (created_at, id);

-- name_contains is LOWER(name) LIKE '%text%': a GIN index of the trigrams of the lower-case
-- name serves it (pg_trgm, a trusted extension: the database's owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX person_name_trigrams ON person USING gin (lower(name) gin_trgm_ops);

-- The key page tokens are signed with (ListPeople's next_page_token): a token the service did
-- not make is refused. Made here once, so tokens outlive a restart and hold across replicas.
CREATE TABLE page_token_key (
    id     integer NOT NULL PRIMARY KEY,
    secret bytea   NOT NULL
);
INSERT INTO page_token_key (id, secret)
VALUES (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
