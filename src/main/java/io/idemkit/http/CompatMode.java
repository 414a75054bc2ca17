package io.idemkit.http;

/** The HTTP dialect (key {@code idemkit.compat-mode}, contract C6.4). */
public enum CompatMode {
    /** 422 for a payload mismatch, 423 for in progress, {@code Idempotency-Replayed}. */
    NONE,
    /** 409 for both, and the replay header spelled {@code Idempotent-Replayed}. */
    STRIPE
}
