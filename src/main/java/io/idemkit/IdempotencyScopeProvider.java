package io.idemkit;

import java.util.Optional;

/**
 * Supplies the scope of the current call: the caller's identity (tenant, user) that becomes part of
 * every effective key, so that two tenants sending the same idempotency key never share a result.
 *
 * <p>Provide exactly one CDI bean of this type (any scope; it is called once per protected
 * operation, on the caller's thread). Returning an empty value fails the call closed with {@link
 * IdempotencyScopeUnavailableException}. It is also called for every message an {@code Idempotent}
 * message-driven bean receives, where there is no HTTP request: a message whose scope it cannot
 * give (it throws, or answers nothing) is acknowledged without running and handed to the {@link
 * IdempotencyMessageExhausted} observers (contract C11.6). The value is hashed into the key and
 * never stored as such; it must be stable for a caller across retries.
 *
 * <p>Without such a bean, {@code idemkit.scope-source=principal} uses the authenticated principal's
 * name; otherwise the library runs single-tenant (see {@code idemkit.scope-mode}).
 *
 * <p>Implementations must be thread-safe.
 */
@FunctionalInterface
public interface IdempotencyScopeProvider {

    /**
     * @return the current caller's scope, or empty when it cannot be determined
     */
    Optional<String> currentScope();
}
