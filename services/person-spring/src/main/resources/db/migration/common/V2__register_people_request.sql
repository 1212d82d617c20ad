-- RegisterPeople streams that carry a request_id: one row per committed stream, so that a
-- repeated stream (a retry after an error) is answered from here instead of stored again.
-- Its people point back at it, with their position in the stream, so the answer lists the
-- same ids in the same order.
CREATE TABLE register_people_request (
    request_id   VARCHAR(36)              NOT NULL PRIMARY KEY,
    -- SHA-256 of the people as sent, in order: tells a retry from other people.
    request_hash VARCHAR(64)              NOT NULL,
    person_count BIGINT                   NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);

ALTER TABLE person ADD COLUMN stream_request_id VARCHAR(36);
ALTER TABLE person ADD COLUMN stream_position BIGINT;
CREATE INDEX person_stream ON person (stream_request_id, stream_position);
