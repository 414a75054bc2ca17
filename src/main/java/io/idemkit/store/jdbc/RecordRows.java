package io.idemkit.store.jdbc;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one row per effective key (C12), with the same fields as the MongoDB record:
 *
 * <pre>
 * idem_key             the effective key (primary key)
 * state                'CLAIMED' | 'COMPLETED' ('ATTEMPTS' for an attempt count)
 * fingerprint          text
 * fingerprint_version  integer
 * claim_token          text, new on every claim
 * claimed_at           epoch milliseconds
 * lease_until          epoch milliseconds: the lease end; for a COMPLETED record the end of
 *                      retention (for a count, its expiry), so that "lease_until &gt; now" says
 *                      live for every row
 * completed_at         epoch milliseconds (COMPLETED only)
 * response_status      integer (COMPLETED only)
 * response_headers     text (COMPLETED only): name=value pairs joined by '&amp;', each part
 *                      URL-encoded as UTF-8, so pure ASCII that every dialect stores as is
 * response_body        binary (COMPLETED only)
 * attempts             integer (counts only)
 * </pre>
 *
 * A row this class cannot read as a record (an unknown state, a missing field, a fingerprint
 * version below 1, undecodable headers) is unreadable, which the store treats as absent (C3). A row
 * of a fingerprint version this library does not compute is read as it is: a node of another
 * release wrote it, and it is never overwritten while it is live (C3).
 */
final class RecordRows {

    static final String COLUMNS =
            "idem_key, state, fingerprint, fingerprint_version, claim_token, claimed_at,"
                    + " lease_until, completed_at, response_status, response_headers,"
                    + " response_body, attempts";

    static final String CLAIMED = "CLAIMED";
    static final String COMPLETED = "COMPLETED";
    static final String ATTEMPTS = "ATTEMPTS";

    private RecordRows() {}

    /** What a row held, as far as the store needs it to decide a claim. */
    record Row(Optional<IdempotencyRecord> record, String state, String token, boolean live) {}

    /**
     * Reads the current row of {@code rows}, which selected {@link #COLUMNS} and {@code live}.
     *
     * @param rows a result set on a row
     * @return the row, its record empty when it is unreadable
     * @throws SQLException if the driver fails
     */
    static Row row(ResultSet rows) throws SQLException {
        return new Row(
                read(rows),
                rows.getString("state"),
                rows.getString("claim_token"),
                rows.getInt("live") == 1);
    }

    /**
     * @param rows a result set on a row that selected {@link #COLUMNS}
     * @return the record, or empty if the row is unreadable
     * @throws SQLException if the driver fails
     */
    static Optional<IdempotencyRecord> read(ResultSet rows) throws SQLException {
        String key = rows.getString("idem_key");
        String state = rows.getString("state");
        String fingerprint = rows.getString("fingerprint");
        Integer version = integer(rows, "fingerprint_version");
        String token = rows.getString("claim_token");
        Long claimedAt = number(rows, "claimed_at");
        Long leaseUntil = number(rows, "lease_until");
        if (key == null
                || fingerprint == null
                || version == null
                || !IdempotencyRecord.isReadableFingerprintVersion(version)
                || token == null
                || token.isBlank()
                || claimedAt == null
                || leaseUntil == null) {
            return Optional.empty();
        }
        try {
            IdempotencyRecord.Builder record =
                    IdempotencyRecord.builder()
                            .key(key)
                            .fingerprint(fingerprint)
                            .fingerprintVersion(version)
                            .token(new ClaimToken(token))
                            .claimedAt(Instant.ofEpochMilli(claimedAt))
                            .leaseUntil(Instant.ofEpochMilli(leaseUntil));
            if (CLAIMED.equals(state)) {
                return Optional.of(record.state(RecordState.CLAIMED).build());
            }
            if (!COMPLETED.equals(state)) {
                return Optional.empty();
            }
            Long completedAt = number(rows, "completed_at");
            Integer status = integer(rows, "response_status");
            String headers = rows.getString("response_headers");
            byte[] body = rows.getBytes("response_body");
            if (completedAt == null || status == null || headers == null || body == null) {
                return Optional.empty();
            }
            // A completed row's lease_until is its end of retention (the class comment).
            return Optional.of(
                    record.state(RecordState.COMPLETED)
                            .completedAt(Instant.ofEpochMilli(completedAt))
                            .expiresAt(Instant.ofEpochMilli(leaseUntil))
                            .result(new StoredResult(status, decodeHeaders(headers), body))
                            .build());
        } catch (IllegalArgumentException | java.time.DateTimeException e) {
            return Optional.empty(); // a status out of range, bad headers, a date out of range
        }
    }

    /**
     * @param headers the headers to store
     * @return their text form: {@code name=value} pairs joined by {@code &}, each part URL-encoded
     */
    static String encodeHeaders(List<StoredHeader> headers) {
        StringBuilder text = new StringBuilder();
        for (StoredHeader header : headers) {
            if (!text.isEmpty()) {
                text.append('&');
            }
            text.append(URLEncoder.encode(header.name(), StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(header.value(), StandardCharsets.UTF_8));
        }
        return text.toString();
    }

    /**
     * @param text the stored form
     * @return the headers
     * @throws IllegalArgumentException if the text is not what {@link #encodeHeaders} writes
     */
    static List<StoredHeader> decodeHeaders(String text) {
        List<StoredHeader> headers = new ArrayList<>();
        if (text.isEmpty()) {
            return headers;
        }
        for (String pair : text.split("&", -1)) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("a stored header without '='");
            }
            headers.add(
                    new StoredHeader(
                            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8)));
        }
        return headers;
    }

    private static Long number(ResultSet rows, String column) throws SQLException {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : value;
    }

    private static Integer integer(ResultSet rows, String column) throws SQLException {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : value;
    }
}
