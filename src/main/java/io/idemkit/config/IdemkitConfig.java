package io.idemkit.config;

import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The whole validated {@code idemkit.*} configuration of an application. Read once at deployment by
 * {@link ConfigReader}; immutable afterwards.
 *
 * @param store {@code idemkit.store}: {@code auto} or a store's name, in lower case
 * @param defaults the operation policy for methods that override nothing
 * @param compatMode the HTTP dialect
 * @param scopeMode what to do without a scope source
 * @param scopeSource where scope comes from
 * @param requireKey whether a mutating idempotent HTTP request must carry a key
 * @param maxBodyBytes the largest response body stored
 * @param maxRequestBytes the largest request body fingerprinted
 * @param headersStored lower-case names of the response headers stored
 * @param headersNeverStored lower-case names of the response headers never stored
 * @param heartbeatInterrupt whether a lost lease interrupts the operation's thread
 * @param httpHeartbeat whether the HTTP surface renews long requests' leases
 * @param maxWaitersPerKey the most threads that may wait on one key for an in-flight call at once
 * @param messageDefaults how message-driven beans treat their messages, unless a bean overrides it
 * @param messageTransactionTimeout the JTA transaction timeout of message-driven beans, for their
 *     lease rule, when it is configured; empty to read the server's
 * @param derivedKeys what the deployment does about method keys derived from all the arguments
 * @param keyDefaults where JAX-RS requests' keys come from, and which headers and body fields are
 *     fingerprinted, unless a method says otherwise
 * @param httpFiltersAfterIdemkit the class names of the application's request filters acknowledged
 *     to run after idemkit's, and to neither authenticate nor authorize (C6.10)
 */
public record IdemkitConfig(
        String store,
        OperationPolicy defaults,
        CompatMode compatMode,
        ScopeMode scopeMode,
        ScopeSource scopeSource,
        boolean requireKey,
        int maxBodyBytes,
        int maxRequestBytes,
        Set<String> headersStored,
        Set<String> headersNeverStored,
        boolean heartbeatInterrupt,
        boolean httpHeartbeat,
        int maxWaitersPerKey,
        MessagePolicy messageDefaults,
        Optional<Duration> messageTransactionTimeout,
        DerivedKeyMode derivedKeys,
        HttpKeyPolicy keyDefaults,
        Set<String> httpFiltersAfterIdemkit) {

    /** Validates and copies the components. */
    public IdemkitConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(compatMode, "compatMode");
        Objects.requireNonNull(scopeMode, "scopeMode");
        Objects.requireNonNull(scopeSource, "scopeSource");
        headersStored = Set.copyOf(headersStored);
        headersNeverStored = Set.copyOf(headersNeverStored);
        Objects.requireNonNull(messageDefaults, "messageDefaults");
        Objects.requireNonNull(messageTransactionTimeout, "messageTransactionTimeout");
        Objects.requireNonNull(derivedKeys, "derivedKeys");
        Objects.requireNonNull(keyDefaults, "keyDefaults");
        httpFiltersAfterIdemkit = Set.copyOf(httpFiltersAfterIdemkit);
    }
}
