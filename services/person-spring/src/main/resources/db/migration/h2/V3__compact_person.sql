-- The person registry made compact, for H2 (about 200 bytes a person on disk where it took
-- 1.5 KB): ids are UUIDs (16 bytes, not 36 characters); hobbies live in the person's row as an
-- array instead of a row (and an index entry) each; the idempotency records move to tables of
-- their own, so people stored without a request_id carry none of their columns. Every table of
-- H2 is a B-tree on its primary key, so person is keyed by seq: the order ListPeople pages in.
-- The service assigns seq and created_at together, so seq order is (created_at, id) order; the
-- people already stored get their seq in that order here.
CREATE TABLE person_v3 (
    seq        BIGINT                   NOT NULL PRIMARY KEY,
    id         UUID                     NOT NULL,
    name       VARCHAR                  NOT NULL,
    age        INTEGER                  NOT NULL,
    city       VARCHAR,
    zip_code   VARCHAR,
    hobbies    VARCHAR ARRAY            NOT NULL,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO person_v3 (seq, id, name, age, city, zip_code, hobbies, created_at)
SELECT ROW_NUMBER() OVER (ORDER BY p.created_at, p.id), CAST(p.id AS UUID), p.name, p.age, p.city, p.zip_code,
       COALESCE((SELECT ARRAY_AGG(h.hobby ORDER BY h.position) FROM person_hobby h WHERE h.person_id = p.id), ARRAY[]),
       p.created_at
FROM person p;
ALTER TABLE person_v3 ADD CONSTRAINT person_id UNIQUE (id);

-- RegisterPerson and SyncPeople's request_ids: the person a request_id stored, and the first
-- 128 bits of the SHA-256 of the person as sent (a retry sends the same person).
CREATE TABLE register_person_request (
    request_id   UUID       NOT NULL PRIMARY KEY,
    request_hash BINARY(16) NOT NULL,
    person_id    UUID       NOT NULL
);
INSERT INTO register_person_request (request_id, request_hash, person_id)
SELECT CAST(request_id AS UUID),
       CAST(CAST(SUBSTRING(request_hash, 1, 8) || '-' || SUBSTRING(request_hash, 9, 4) || '-'
                 || SUBSTRING(request_hash, 13, 4) || '-' || SUBSTRING(request_hash, 17, 4) || '-'
                 || SUBSTRING(request_hash, 21, 12) AS UUID) AS BINARY(16)),
       CAST(id AS UUID)
FROM person WHERE request_id IS NOT NULL;

-- RegisterPeople's request_ids: a committed stream's fingerprint, size and the ids it was
-- answered with, in order (NULL for a stream of more than 10,000 people, answered without ids).
CREATE TABLE register_people_request_v3 (
    request_id   UUID                     NOT NULL PRIMARY KEY,
    request_hash BINARY(16)               NOT NULL,
    person_count BIGINT                   NOT NULL,
    ids          UUID ARRAY,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
INSERT INTO register_people_request_v3 (request_id, request_hash, person_count, ids, created_at)
SELECT CAST(r.request_id AS UUID),
       CAST(CAST(SUBSTRING(r.request_hash, 1, 8) || '-' || SUBSTRING(r.request_hash, 9, 4) || '-'
                 || SUBSTRING(r.request_hash, 13, 4) || '-' || SUBSTRING(r.request_hash, 17, 4) || '-'
                 || SUBSTRING(r.request_hash, 21, 12) AS UUID) AS BINARY(16)),
       r.person_count,
       CASE WHEN r.person_count <= 10000 THEN
         (SELECT ARRAY_AGG(CAST(p.id AS UUID) ORDER BY p.stream_position) FROM person p WHERE p.stream_request_id = r.request_id)
       END,
       r.created_at
FROM register_people_request r;

DROP TABLE person_hobby;
DROP TABLE person;
DROP TABLE register_people_request;
ALTER TABLE person_v3 RENAME TO person;
ALTER TABLE register_people_request_v3 RENAME TO register_people_request;

-- The key page tokens are signed with (ListPeople's next_page_token): a token the service did
-- not make is refused. Made here once, so tokens outlive a restart.
CREATE TABLE page_token_key (
    id     INTEGER    NOT NULL PRIMARY KEY,
    secret BINARY(32) NOT NULL
);
INSERT INTO page_token_key (id, secret) VALUES (1, SECURE_RAND(32));
