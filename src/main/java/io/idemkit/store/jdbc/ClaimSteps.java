package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Optional;

/**
 * The claim of the JDBC store (C12), never a read then a write: every write is conditional, and the
 * database decides each condition with its own clock at the moment it writes.
 *
 * <ol>
 *   <li>Insert the new claim if the key is absent. On PostgreSQL and MariaDB one statement does
 *       this and, when the key is there, returns its row with whether it is live, never raising a
 *       duplicate-key error ({@link RecordStatements#insertOrSelectClaim}). On H2 the insert fails
 *       with a duplicate key, which fails that statement only, and a {@code SELECT} returns the
 *       row. A readable, live row is the answer: {@link ClaimStatus#ALREADY_CLAIMED} or {@link
 *       ClaimStatus#ALREADY_COMPLETED}.
 *   <li>Otherwise the row is overwritten with the new claim by one {@code UPDATE} pinned on the
 *       state and token read (every claim writes a fresh random token, so of racing claimers only
 *       the first still matches) and, for a readable row, only if it is not live by the database's
 *       clock. What the row was tells the status: a lapsed claim {@link
 *       ClaimStatus#LEASE_RECLAIMED}, a lapsed result {@link ClaimStatus#NEW}, an unreadable row
 *       {@code NEW} recovered from corrupt.
 *   <li>A step that finds the row gone or changed starts again, a bounded number of times.
 * </ol>
 *
 * So a fresh claim is one statement; a replay one, two on H2; a takeover three (look, overwrite,
 * read the dates the database stamped). Thread-safe: no state.
 */
final class ClaimSteps {

    private static final int MAX_ATTEMPTS = 5;

    private final JdbcDialect dialect;
    private final RecordStatements sql;

    ClaimSteps(JdbcDialect dialect, RecordStatements sql) {
        this.dialect = dialect;
        this.sql = sql;
    }

    /** What the first step found: our own inserted claim, the row that is there, or nothing. */
    private record Look(IdempotencyRecord inserted, RecordRows.Row row) {}

    /**
     * The answer to a claim that another transaction kept from its row past the store's bound
     * ({@link LockWait}), most often a completion inside a business transaction (C13): the row as
     * committed, read without a lock. A claim there is in flight ({@link
     * ClaimStatus#ALREADY_CLAIMED}, even when its lease lapsed: the holder may be completing it),
     * and a live result is final; anything else (no committed row, an unreadable one, a lapsed
     * result) is contention, which the engine waits out as it waits for a claim.
     *
     * @param c a connection other than the one the claim failed on
     * @throws SQLException {@code contention} when the committed row gives no answer
     */
    ClaimResult asCommitted(Connection c, String key, SQLException contention) throws SQLException {
        Optional<RecordRows.Row> row = select(c, key);
        Optional<IdempotencyRecord> committed = row.flatMap(RecordRows.Row::record);
        if (committed.isPresent()) {
            IdempotencyRecord record = committed.get();
            if (record.state() == RecordState.CLAIMED) {
                return ClaimResult.of(ClaimStatus.ALREADY_CLAIMED, record);
            }
            if (row.get().live()) {
                return ClaimResult.of(ClaimStatus.ALREADY_COMPLETED, record);
            }
        }
        throw contention;
    }

    private Optional<RecordRows.Row> select(Connection c, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.selectRow)) {
            ps.setString(1, key);
            try (ResultSet rows = ps.executeQuery()) {
                return rows.next() ? Optional.of(RecordRows.row(rows)) : Optional.empty();
            }
        }
    }

    /**
     * @throws SQLException the database's; one that {@link SqlFailures#isContention} is answered
     *     with {@link #asCommitted}, on another connection: a pool may discard the one a lock
     *     timeout failed on (HikariCP does for H2's, an {@code SQLTimeoutException})
     */
    ClaimResult claim(Connection c, String key, String fingerprint, int version, long leaseMillis)
            throws SQLException {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            ClaimToken token = ClaimToken.random();
            Look look =
                    dialect.claimsInOneStatement()
                            ? insertOrSelect(c, key, fingerprint, version, token, leaseMillis)
                            : insertThenSelect(c, key, fingerprint, version, token, leaseMillis);
            if (look.inserted() != null) {
                return ClaimResult.of(ClaimStatus.NEW, look.inserted());
            }
            RecordRows.Row row = look.row();
            if (row == null) {
                continue; // released, or committed by a racer after our snapshot: look again
            }
            Optional<IdempotencyRecord> existing = row.record();
            if (existing.isPresent() && row.live()) {
                IdempotencyRecord live = existing.get();
                return ClaimResult.of(
                        live.state() == RecordState.COMPLETED
                                ? ClaimStatus.ALREADY_COMPLETED
                                : ClaimStatus.ALREADY_CLAIMED,
                        live);
            }
            Optional<IdempotencyRecord> mine =
                    overwrite(c, key, row, fingerprint, version, leaseMillis);
            if (mine.isPresent()) {
                if (existing.isEmpty()) {
                    return new ClaimResult(ClaimStatus.NEW, mine.get(), true);
                }
                return ClaimResult.of(
                        existing.get().state() == RecordState.CLAIMED
                                ? ClaimStatus.LEASE_RECLAIMED
                                : ClaimStatus.NEW,
                        mine.get());
            }
        }
        throw new IdempotencyStorageException(
                IdempotencyStorageException.Kind.CONTENDED,
                "JDBC claim gave up after "
                        + MAX_ATTEMPTS
                        + " attempts: the record kept changing under concurrent claims. Retry the"
                        + " operation.",
                null);
    }

    private Look insertOrSelect(
            Connection c,
            String key,
            String fingerprint,
            int version,
            ClaimToken token,
            long leaseMillis)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.insertOrSelectClaim)) {
            bindClaim(ps, key, fingerprint, version, token, leaseMillis);
            if (dialect == JdbcDialect.POSTGRESQL) {
                ps.setString(6, key);
            }
            try (ResultSet rows = LockWait.query(dialect, ps)) {
                if (!rows.next()) {
                    return new Look(null, null);
                }
                // Every claim draws a fresh random token: our token in the row means our insert.
                if (token.value().equals(rows.getString("claim_token"))) {
                    return new Look(claimed(rows, key, fingerprint, version, token), null);
                }
                return new Look(null, RecordRows.row(rows));
            }
        }
    }

    /** The first five parameters of both inserts: key, fingerprint, version, token, lease. */
    private static void bindClaim(
            PreparedStatement ps,
            String key,
            String fingerprint,
            int version,
            ClaimToken token,
            long leaseMillis)
            throws SQLException {
        ps.setString(1, key);
        ps.setString(2, fingerprint);
        ps.setInt(3, version);
        ps.setString(4, token.value());
        ps.setLong(5, leaseMillis);
    }

    private Look insertThenSelect(
            Connection c,
            String key,
            String fingerprint,
            int version,
            ClaimToken token,
            long leaseMillis)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql.insertClaim)) {
            bindClaim(ps, key, fingerprint, version, token, leaseMillis);
            try (ResultSet rows = ps.executeQuery()) {
                rows.next();
                return new Look(claimed(rows, key, fingerprint, version, token), null);
            }
        } catch (SQLException e) {
            if (!dialect.isDuplicateKey(e)) {
                throw e;
            }
        }
        return new Look(null, select(c, key).orElse(null));
    }

    /** Overwrites the row as read with a new claim; empty if it changed meanwhile. */
    private Optional<IdempotencyRecord> overwrite(
            Connection c,
            String key,
            RecordRows.Row row,
            String fingerprint,
            int version,
            long leaseMillis)
            throws SQLException {
        ClaimToken token = ClaimToken.random();
        String update =
                row.record().isPresent() ? sql.overwritePinnedIfLapsed : sql.overwritePinned;
        try (PreparedStatement ps = c.prepareStatement(update)) {
            ps.setString(1, fingerprint);
            ps.setInt(2, version);
            ps.setString(3, token.value());
            ps.setLong(4, leaseMillis);
            ps.setString(5, key);
            setNullable(ps, 6, row.state());
            setNullable(ps, 7, row.token());
            if (LockWait.update(dialect, ps) != 1) {
                return Optional.empty();
            }
        }
        try (PreparedStatement ps = c.prepareStatement(sql.selectClaim)) {
            ps.setString(1, key);
            ps.setString(2, token.value());
            try (ResultSet rows = ps.executeQuery()) {
                return rows.next()
                        ? Optional.of(claimed(rows, key, fingerprint, version, token))
                        : Optional.empty();
            }
        }
    }

    private static IdempotencyRecord claimed(
            ResultSet rows, String key, String fingerprint, int version, ClaimToken token)
            throws SQLException {
        return IdempotencyRecord.claimed(
                key,
                fingerprint,
                version,
                token,
                Instant.ofEpochMilli(rows.getLong("claimed_at")),
                Instant.ofEpochMilli(rows.getLong("lease_until")));
    }

    private static void setNullable(PreparedStatement ps, int index, String value)
            throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.VARCHAR);
        } else {
            ps.setString(index, value);
        }
    }
}
