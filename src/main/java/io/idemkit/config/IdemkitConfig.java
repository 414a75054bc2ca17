package io.idemkit.config;

import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeMode;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated keys of {@link ConfigKeys}: the engine's, and the surfaces' defaults that the
 * per-method policy merges (a wing's own keys are its {@link ConfigSection}'s settings). Read once
 * at deployment by {@link ConfigReader}; immutable afterwards.
 *
 * @param store {@code idemkit.store}: {@code auto} or a store's name, in lower case
 * @param defaults the operation policy for methods that override nothing
 * @param scopeMode what to do without a scope source
 * @param scopeSource where scope comes from
 * @param maxBodyBytes the largest response body stored
 * @param heartbeatInterrupt whether a lost lease interrupts the operation's thread
 * @param maxWaitersPerKey the most threads that may wait on one key for an in-flight call at once
 * @param messageDefaults how message-driven beans treat their messages, unless a bean overrides it
 * @param messageTransactionTimeout the JTA transaction timeout of message-driven beans, for their
 *     lease rule, when it is configured; empty to read the server's
 * @param exhaustedRecords what becomes of a Kafka record given up after its attempts
 * @param processorDuplicates what a duplicate record of a processor sends on
 * @param derivedKeys what the deployment does about method keys derived from all the arguments
 * @param keyDefaults where JAX-RS requests' keys come from, and which headers and body fields are
 *     fingerprinted, unless a method says otherwise
 */
public record IdemkitConfig(
        String store,
        OperationPolicy defaults,
        ScopeMode scopeMode,
        ScopeSource scopeSource,
        int maxBodyBytes,
        boolean heartbeatInterrupt,
        int maxWaitersPerKey,
        MessagePolicy messageDefaults,
        Optional<Duration> messageTransactionTimeout,
        ExhaustedRecords exhaustedRecords,
        ProcessorDuplicates processorDuplicates,
        DerivedKeyMode derivedKeys,
        HttpKeyPolicy keyDefaults) {

    /** Validates and copies the components. */
    public IdemkitConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(defaults, "defaults");
        Objects.requireNonNull(scopeMode, "scopeMode");
        Objects.requireNonNull(scopeSource, "scopeSource");
        Objects.requireNonNull(messageDefaults, "messageDefaults");
        Objects.requireNonNull(messageTransactionTimeout, "messageTransactionTimeout");
        Objects.requireNonNull(exhaustedRecords, "exhaustedRecords");
        Objects.requireNonNull(processorDuplicates, "processorDuplicates");
        Objects.requireNonNull(derivedKeys, "derivedKeys");
        Objects.requireNonNull(keyDefaults, "keyDefaults");
    }
}
