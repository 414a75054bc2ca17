package io.idemkit.core;

/** How the library behaves when no scope source is configured (contract C5). */
public enum ScopeMode {
    /** Run single-tenant, and warn loudly at startup and then periodically. The default. */
    WARN,
    /** Run single-tenant on purpose: the warning is acknowledged and silenced. */
    SINGLE_TENANT,
    /** A missing scope source is a deployment error. */
    STRICT
}
