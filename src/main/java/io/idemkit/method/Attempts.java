package io.idemkit.method;

import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.core.hash.EffectiveKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the message surfaces share (C11, C17): the attempts of a message's operation, counted in the
 * store (C11.3, C17.4), and the values of the reference that their records carry.
 */
public final class Attempts {

    /** The fingerprint of every message when its body is not fingerprinted: the reference's. */
    public static final String KEY_ONLY_FINGERPRINT = "idemkit-queue-v1";

    /** What a message given up after its attempts stores, so that its record says so. */
    public static final byte[] EXHAUSTED_MARKER =
            "{\"idemkit\":\"exhausted\"}".getBytes(StandardCharsets.UTF_8);

    private Attempts() {}

    /**
     * Counts one attempt, apart from the operation's record, so that the count outlives releases
     * and restarts.
     *
     * @return the attempts counted so far, this one included
     * @throws UnsupportedOperationException when the store cannot count
     */
    public static long count(IdempotencyEngine engine, Operation operation) {
        return engine.store()
                .countAttempt(
                        EffectiveKey.of(List.of("idemkit-attempts", operation.effectiveKey())),
                        operation.policy().completedTtl());
    }
}
