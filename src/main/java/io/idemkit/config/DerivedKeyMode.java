package io.idemkit.config;

/**
 * What the deployment does about method-surface keys derived from all the arguments (key {@code
 * idemkit.method.derived-key}, contract C7.1): a derived key must be the same on every retry, and
 * an argument that changes between retries (a timestamp, a fresh UUID, a request id) makes every
 * retry a new operation that runs again.
 */
public enum DerivedKeyMode {
    /** Allowed; arguments that look volatile are warned about, once per method. */
    WARN,
    /** Allowed, except where an argument visibly looks volatile: then the deployment fails. */
    STRICT,
    /** Every {@code @Idempotent} method needs an {@code @IdempotencyKey} parameter. */
    REFUSE
}
