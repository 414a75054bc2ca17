package io.idemkit.policy;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.DurationFormat;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.MessageKeySource;
import io.idemkit.config.MessageLeaseRule;
import io.idemkit.config.MessagePolicy;
import io.idemkit.config.ScopeSource;
import io.idemkit.config.TransactionTimeout;
import io.idemkit.core.OperationPolicy;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The deployment's checks of every {@code @Idempotent} message listener: a message-driven bean's
 * {@code onMessage} (C11) and an {@code @Incoming} method (C17): its message settings, whether its
 * deliveries can be scoped, and its lease rule, against the transaction timeout the beans run under
 * (C11.4) or the Kafka consumer's poll interval (C17.3). Each returns one message per broken rule,
 * naming the method.
 */
public final class MessageChecks {

    private static final System.Logger LOG = System.getLogger(MessageChecks.class.getName());

    private MessageChecks() {}

    /**
     * @return the problems of the message listeners among {@code methods}; empty when there are
     *     none, or none is broken
     */
    public static List<String> problems(
            IdemkitConfig read,
            List<MethodSite> methods,
            Map<MethodRef, OperationPolicy> policies,
            ConfigLookup config,
            Supplier<Optional<TransactionTimeout>> server) {
        List<String> problems = new ArrayList<>();
        TransactionTimeout timeout = null;
        for (MethodSite site : methods) {
            if (!site.receivesMessages()) {
                continue;
            }
            MethodRef ref = site.ref();
            boolean reactive = MethodSite.REACTIVE_MESSAGING.equals(site.transport());
            try {
                // A message-driven bean is held to its own keys' source: the global one may name
                // the record key for the application's Kafka records.
                MessagePolicy resolved =
                        MessageResolution.resolve(
                                config,
                                ref.beanClass().getName(),
                                ref.method().getName(),
                                reactive
                                        ? read.messageDefaults()
                                        : read.messageDefaults()
                                                .withKeySource(MessageKeySource.PROPERTY));
                if (!reactive && resolved.keySource() == MessageKeySource.RECORD_KEY) {
                    problems.add(
                            "The messages of "
                                    + ref
                                    + " cannot be keyed by a record key (keySource=record-key):"
                                    + " only Kafka records have one (C17.1). Key them by the key"
                                    + " property, keySource=property.");
                }
            } catch (IllegalArgumentException e) {
                problems.add("Invalid " + e.getMessage());
            }
            if (reactive) {
                try {
                    RecordKeyResolution.forMethod(config, ref.beanClass(), ref.method())
                            .extractor()
                            .ifPresent(
                                    name -> RecordKeyResolution.checkClass(ref.beanClass(), name));
                } catch (IllegalArgumentException e) {
                    problems.add(
                            "Invalid key source of "
                                    + ref
                                    + " (annotations and per-method configuration keys merged): "
                                    + e.getMessage());
                }
            }
            if (read.scopeSource() == ScopeSource.PRINCIPAL) {
                problems.add(principalScope(ref));
            }
            OperationPolicy policy = policies.get(ref);
            if (reactive) {
                problems.addAll(
                        PollIntervalRule.problems(
                                ref.toString(), ref.method(), policy.leaseTtl(), config));
                continue;
            }
            if (timeout == null) {
                timeout = transactionTimeout(read, server);
            }
            problems.addAll(
                    MessageLeaseRule.problems(
                            ref.toString(), policy.leaseTtl(), policy.waitTimeout(), timeout));
        }
        return problems;
    }

    /**
     * The checks of the {@code @Incoming} methods among {@code methods} that need no bean (C17.3):
     * their merged policies, their message settings and their lease rule. Made while beans are
     * still being defined, before deployment validation, during which a Reactive Messaging runtime
     * connects its channels: WildFly leaves the channels of a deployment refused after that
     * consuming records, so a refusal must come first.
     *
     * @param read the validated global configuration
     * @param methods the application's {@code @Idempotent} methods
     * @param config the configuration, for the per-class and per-method keys
     * @return one message per broken rule; empty when there is no such method, or none breaks one
     */
    public static List<String> ofIncomingMethods(
            IdemkitConfig read, List<MethodSite> methods, ConfigLookup config) {
        List<MethodSite> incoming =
                methods.stream()
                        .filter(s -> MethodSite.REACTIVE_MESSAGING.equals(s.transport()))
                        .toList();
        List<String> problems = new ArrayList<>();
        Map<MethodRef, OperationPolicy> policies =
                MethodPolicyChecks.policies(read, incoming, config, problems);
        if (!problems.isEmpty()) {
            return problems;
        }
        return problems(read, incoming, policies, config, Optional::empty);
    }

    /**
     * The transaction timeout the lease rule holds leases to (C11.4): the configured one, which
     * wins; else the server's, read once and only when there is a message listener to check; else
     * {@link TransactionTimeout#ASSUMED}, with one warning that asks for the key. Requiring the key
     * instead would refuse every message-driven bean on a runtime the library cannot read, for a
     * value the assumption already errs on the short side of (the shortest default the library
     * knows).
     */
    private static TransactionTimeout transactionTimeout(
            IdemkitConfig read, Supplier<Optional<TransactionTimeout>> server) {
        if (read.messageTransactionTimeout().isPresent()) {
            return TransactionTimeout.configured(read.messageTransactionTimeout().get());
        }
        Optional<TransactionTimeout> fromServer = server.get();
        if (fromServer.isPresent()) {
            LOG.log(
                    Level.INFO,
                    "idemkit holds the leases of message-driven beans to "
                            + fromServer.get().origin()
                            + " (C11.4); set "
                            + ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT
                            + " where beans run under another.");
            return fromServer.get();
        }
        TransactionTimeout assumed = TransactionTimeout.assumed();
        LOG.log(
                Level.WARNING,
                "idemkit cannot read this server's JTA transaction timeout, and "
                        + ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT
                        + " is not set: the lease rule of @Idempotent message-driven beans (C11.4)"
                        + " assumes "
                        + DurationFormat.format(assumed.value())
                        + ". Set "
                        + ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT
                        + " to the transaction timeout your message-driven beans run under (0s if"
                        + " none).");
        return assumed;
    }

    /**
     * {@code scope-source=principal} fails every call without an authenticated caller (C5), and a
     * delivery has none: Jakarta EE's run-as identity is the one a bean calls others with, not its
     * caller's, and the vendor descriptors that give a message-driven bean a principal give it one
     * name for every message, a scope that would look like isolation without being it. Every
     * message would be given up unrun (C11.6), so the deployment is refused instead.
     */
    private static String principalScope(MethodRef ref) {
        return ConfigKeys.SCOPE_SOURCE
                + "=principal cannot scope the messages of "
                + ref
                + ": a message delivery has no authenticated caller (a run-as identity is the one"
                + " the bean calls others with), so every message would be given up unrun. Set "
                + ConfigKeys.SCOPE_SOURCE
                + "=auto (authenticated callers are still scoped by their principal, and message"
                + " deliveries share the single-tenant scope), or provide an"
                + " IdempotencyScopeProvider bean that answers during a delivery.";
    }
}
