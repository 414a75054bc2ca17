-- idemkit JDBC store (contract C12), PostgreSQL 12 or newer. One row per effective key, plus
-- the attempt counts (state 'ATTEMPTS'). Every time is milliseconds since the epoch (UTC) on the
-- database's clock. Columns other than the key are nullable on purpose: the store reads a row it
-- cannot use as absent and overwrites it.
CREATE TABLE IF NOT EXISTS idemkit_records (
    idem_key            VARCHAR(256) NOT NULL PRIMARY KEY,
    state               VARCHAR(16),
    fingerprint         VARCHAR(256),
    fingerprint_version INTEGER,
    claim_token         VARCHAR(64),
    claimed_at          BIGINT,
    lease_until         BIGINT,
    completed_at        BIGINT,
    response_status     INTEGER,
    response_headers    TEXT,
    response_body       BYTEA,
    attempts            BIGINT
);
CREATE INDEX IF NOT EXISTS idemkit_records_lease_until_idx ON idemkit_records (lease_until);
