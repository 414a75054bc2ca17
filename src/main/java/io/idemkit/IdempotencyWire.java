package io.idemkit;

/**
 * The names idemkit puts on the wire, said once: its HTTP headers (C6.1, C6.2, C6.5, C6.8) and the
 * {@code type} of its problem responses (C6.4, C7.5). The server's filters, the client half and the
 * OpenAPI document all take them from here, and an application may name them too: a test that
 * asserts a replay, a gateway that forwards the key, a client of its own that tells an in-progress
 * answer from a payload mismatch.
 */
public final class IdempotencyWire {

    /** The request header that carries the key by default (C6.1, {@code idemkit.key-header}). */
    public static final String KEY_HEADER = "Idempotency-Key";

    /** On a replayed response, {@code true} (C6.2). */
    public static final String REPLAYED_HEADER = "Idempotency-Replayed";

    /** {@link #REPLAYED_HEADER} as Stripe spells it, which {@code compat-mode=stripe} sends. */
    public static final String STRIPE_REPLAYED_HEADER = "Idempotent-Replayed";

    /** When the key's record expires, as an IMF-fixdate (C6.8). */
    public static final String KEY_EXPIRES_HEADER = "Idempotency-Key-Expires";

    /**
     * On a response that was delivered but not stored, why: {@code size-exceeded} or {@code
     * streaming} (C6.5).
     */
    public static final String REPLAY_UNAVAILABLE_HEADER = "Idempotency-Replay-Unavailable";

    /**
     * Stripe's answer to whether a failed request may be retried, which the client half obeys
     * (C14.5); idemkit's server does not send it.
     */
    public static final String STRIPE_SHOULD_RETRY_HEADER = "Stripe-Should-Retry";

    /** The key was used before with another request: 422 (409 with {@code compat-mode=stripe}). */
    public static final String PAYLOAD_MISMATCH = "urn:idemkit:payload-mismatch";

    /**
     * A request with the key is still in progress and the wait ended: 423 (409 with {@code
     * compat-mode=stripe}), with {@code Retry-After}.
     */
    public static final String IN_PROGRESS = "urn:idemkit:in-progress";

    /** The key is missing where required, empty, oversized or malformed: 400. */
    public static final String MISSING_KEY = "urn:idemkit:missing-key";

    /** The store is unavailable under fail-closed: 503, with {@code Retry-After}. */
    public static final String STORAGE_ERROR = "urn:idemkit:storage-error";

    /** A keyed request whose query or path cannot be read as sent: 400. */
    public static final String MALFORMED_QUERY = "urn:idemkit:malformed-query";

    /** A keyed request whose body ended before its {@code Content-Length}: 400. */
    public static final String INCOMPLETE_BODY = "urn:idemkit:incomplete-body";

    /** Application request filters run after idemkit's under {@code scope-mode=strict}: 500. */
    public static final String FILTER_ORDER = "urn:idemkit:filter-order";

    /** The caller's identity, which scopes its keys, could not be determined: 500 (C5). */
    public static final String IDENTITY_UNAVAILABLE = "urn:idemkit:identity-unavailable";

    /** The operation ran but its result could not be stored for replay: 500 (C7.2, C7.5). */
    public static final String RESULT_NOT_STORABLE = "urn:idemkit:result-not-storable";

    private IdempotencyWire() {}
}
