package io.idemkit.method;

import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.core.hash.EffectiveKey;
import java.util.List;

/** The attempts of a message's operation, counted in the store (C11.3, C17.4). */
public final class Attempts {

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
