-- idemkit JDBC store (contract C12), MariaDB 10.5 or newer, InnoDB. One row per effective key,
-- plus the attempt counts (state 'ATTEMPTS'). Every time is milliseconds since the epoch (UTC) on
-- the database's clock. Keys, tokens and the encoded headers are ASCII with a binary collation:
-- the default collations ignore case, and two keys differing in case are two keys. Columns other
-- than the key are nullable on purpose: the store reads a row it cannot use as absent and
-- overwrites it.
CREATE TABLE IF NOT EXISTS idemkit_records (
    idem_key            VARCHAR(256) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
    state               VARCHAR(16) CHARACTER SET ascii COLLATE ascii_bin,
    fingerprint         VARCHAR(256) CHARACTER SET ascii COLLATE ascii_bin,
    fingerprint_version INT,
    claim_token         VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin,
    claimed_at          BIGINT,
    lease_until         BIGINT,
    completed_at        BIGINT,
    response_status     INT,
    response_headers    MEDIUMTEXT CHARACTER SET ascii COLLATE ascii_bin,
    response_body       LONGBLOB,
    attempts            BIGINT
) ENGINE=InnoDB;
CREATE INDEX IF NOT EXISTS idemkit_records_lease_until_idx ON idemkit_records (lease_until);
