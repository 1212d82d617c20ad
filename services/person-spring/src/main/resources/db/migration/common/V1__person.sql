-- The person registry. Portable SQL: the same migration runs on H2 (the default) and
-- PostgreSQL. Ids are UUID text so both databases store them alike. Text columns carry no
-- length limit: the limits are the schema's buf.validate rules, counted in code points,
-- which a VARCHAR(n) counted in UTF-16 units (H2) would disagree with.
CREATE TABLE person (
    id          VARCHAR(36)              NOT NULL PRIMARY KEY,
    name        VARCHAR                  NOT NULL,
    age         INTEGER                  NOT NULL,
    city        VARCHAR,
    zip_code    VARCHAR,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    -- request_id makes RegisterPerson/SyncPeople idempotent; request_hash (SHA-256 of the
    -- person as sent) tells a retry from a different person under the same request_id.
    request_id  VARCHAR(36)              UNIQUE,
    request_hash VARCHAR(64)
);

-- ListPeople pages in (created_at, id) order.
CREATE INDEX person_created_at_id ON person (created_at, id);

-- Hobbies in their original order; deleted with their person.
CREATE TABLE person_hobby (
    person_id   VARCHAR(36) NOT NULL REFERENCES person (id) ON DELETE CASCADE,
    position    INTEGER     NOT NULL,
    hobby       VARCHAR     NOT NULL,
    PRIMARY KEY (person_id, position)
);
