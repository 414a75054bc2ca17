package io.idemkit.store;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoreArguments;
import io.idemkit.spi.StoredResult;
import java.time.Duration;

/**
 * The argument checks of each {@code IdempotencyStore} operation, one method an operation, so that
 * every bundled store refuses the same arguments with the same messages (C2, through the SPI's
 * {@link StoreArguments}). Stateless.
 */
public final class OperationChecks {

    private OperationChecks() {}

    /** The arguments of {@code claim}. */
    public static void claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireFingerprint(fingerprint);
        StoreArguments.requireFingerprintVersion(fingerprintVersion);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
    }

    /** The arguments of {@code complete} and {@code completeInTransaction}. */
    public static void complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
        StoreArguments.requireResult(result);
        StoreArguments.requireTtl(completedTtl, "completedTtl");
    }

    /** The arguments of {@code release}. */
    public static void release(String key, ClaimToken token) {
        StoreArguments.requireKey(key);
        StoreArguments.requireToken(token);
    }

    /** The arguments of {@code renew}. */
    public static void renew(String key, ClaimToken token, Duration leaseTtl) {
        release(key, token);
        StoreArguments.requireTtl(leaseTtl, "leaseTtl");
    }

    /** The arguments of {@code awaitCompletion}. */
    public static void awaitCompletion(String key, Duration timeout) {
        StoreArguments.requireKey(key);
        StoreArguments.requireTimeout(timeout);
    }

    /** The arguments of {@code countAttempt}. */
    public static void countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.requireKey(attemptsKey);
        StoreArguments.requireTtl(retention, "retention");
    }
}
