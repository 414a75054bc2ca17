package io.idemkit.store.mongo;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/** Values the Mongo store tests share. */
final class Fixtures {

    /** A lease short enough to let run out in real time, long enough to outlive a slow step. */
    static final Duration LEASE = Duration.ofMillis(400);

    static final Duration LONG = Duration.ofMinutes(10);
    static final String FINGERPRINT = "f".repeat(64);
    static final int VERSION = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    private static final SecureRandom RANDOM = new SecureRandom();

    private Fixtures() {}

    /** An effective key: 64 lowercase hex characters, like a SHA-256. */
    static String key() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static StoredResult result(String body) {
        return new StoredResult(
                201,
                List.of(
                        new StoredHeader("Content-Type", "application/json"),
                        new StoredHeader("Link", "</a>; rel=next"),
                        new StoredHeader("Link", "</b>; rel=prev")),
                body.getBytes(StandardCharsets.UTF_8));
    }
}
