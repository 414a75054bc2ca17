package io.idemkit.config;

/** Where the scope of a call comes from (key {@code idemkit.scope-source}, contract C5). */
public enum ScopeSource {
    /** An {@code IdempotencyScopeProvider} bean when the application has one; otherwise none. */
    AUTO,
    /** The authenticated principal's name; a call without one is refused. */
    PRINCIPAL
}
