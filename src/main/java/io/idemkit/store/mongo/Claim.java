package io.idemkit.store.mongo;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import java.time.Duration;
import java.time.Instant;

/**
 * A claim about to be written, dated from the estimated server time: every instant already
 * truncated to the millisecond. A client-stamped write stores these dates; a server-stamped one
 * stores the server's own ({@link UpdateForm}) and keeps the rest.
 */
record Claim(
        String fingerprint,
        int fingerprintVersion,
        ClaimToken token,
        Instant claimedAt,
        Instant leaseUntil,
        Instant expireAt) {

    static Claim at(
            Instant serverNow,
            String fingerprint,
            int fingerprintVersion,
            Duration leaseTtl,
            Duration leaseGrace) {
        Instant claimedAt = RecordLayout.millis(serverNow);
        Instant leaseUntil = RecordLayout.plus(claimedAt, leaseTtl);
        return new Claim(
                fingerprint,
                fingerprintVersion,
                ClaimToken.random(),
                claimedAt,
                leaseUntil,
                RecordLayout.plus(leaseUntil, leaseGrace));
    }

    IdempotencyRecord record(String key) {
        return IdempotencyRecord.claimed(
                key, fingerprint, fingerprintVersion, token, claimedAt, leaseUntil);
    }

    /** This claim as the server stamped it, where it did. */
    IdempotencyRecord record(String key, RecordReader.Stamps stamps) {
        return IdempotencyRecord.claimed(
                key,
                fingerprint,
                fingerprintVersion,
                token,
                stamps.claimedAt(),
                stamps.leaseUntil());
    }
}
