package io.idemkit.core;

import java.util.Objects;

/**
 * One operation presented to the engine: its identity, its payload fingerprint and its policy.
 *
 * @param effectiveKey the effective key (lowercase hex SHA-256 of the key parts, contract C1)
 * @param fingerprint the payload fingerprint
 * @param fingerprintVersion the fingerprint scheme version
 * @param policy the knobs for this operation
 * @param surface where it came from, {@code http}, {@code method} or {@code message}, for events
 */
public record Operation(
        String effectiveKey,
        String fingerprint,
        int fingerprintVersion,
        OperationPolicy policy,
        String surface) {

    /** Validates the components. */
    public Operation {
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(fingerprint, "fingerprint");
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(surface, "surface");
    }
}
