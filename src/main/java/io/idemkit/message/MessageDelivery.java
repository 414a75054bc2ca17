package io.idemkit.message;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyMessageExhausted;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.MessagePolicy;
import io.idemkit.core.Admission;
import io.idemkit.core.Execution;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.method.Attempts;
import io.idemkit.method.IdempotentInterceptor;
import io.idemkit.method.ListenerDelivery;
import io.idemkit.method.MethodPlan;
import io.idemkit.method.RecentFailures;
import io.idemkit.policy.MessageResolution;
import io.idemkit.spi.StoredResult;
import io.idemkit.transaction.TransactionHooks;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The message surface (contract C11): an {@code @Idempotent} message-driven bean's {@code
 * onMessage(Message)} runs once per message key, and every delivery of that key is acknowledged
 * once the first run has committed.
 *
 * <ul>
 *   <li>The key is the message property {@link MessagePolicy#keyProperty()} when the message has it
 *       (a producer's re-send is then a duplicate), else its {@code JMSMessageID} (which covers the
 *       broker's redeliveries only). The fingerprint is a constant unless the body is asked for
 *       (C11.1). A message whose scope cannot be resolved is acknowledged unrun and handed to the
 *       exhausted observers (C11.6).
 *   <li>Acknowledge is a normal return, so the container commits; redeliver is a rollback (the
 *       transaction is marked rollback-only, or, with no transaction to mark, an exception). The
 *       record completes only once the transaction commits, and a rollback releases the claim
 *       (C11.2).
 *   <li>A duplicate of a message still running waits up to the wait timeout, then asks for
 *       redelivery: it never acknowledges a message whose first run has not completed. A storage
 *       failure under fail-closed asks for redelivery too, and counts as no attempt (C11.5).
 *   <li>Every run counts one attempt in the store ({@code countAttempt}), which outlives releases
 *       and restarts; a store that cannot count leaves the broker's {@code JMSXDeliveryCount}. Once
 *       the count passes {@link MessagePolicy#maxAttempts()}, the bean is not run: {@link
 *       IdempotencyMessageExhausted} fires, the record is completed as given up, the message is
 *       acknowledged, and the delivery's event reports {@code given_up} (C11.3).
 * </ul>
 *
 * <p>The one class of the library that uses Jakarta Messaging: it is loaded only when an {@code
 * onMessage(jakarta.jms.Message)} is called, so runtimes without the API never load it.
 * Thread-safe.
 */
final class MessageDelivery implements ListenerDelivery {

    /** The fingerprint of every message when the body is not fingerprinted: the reference's. */
    static final String KEY_ONLY_FINGERPRINT = Attempts.KEY_ONLY_FINGERPRINT;

    /** The {@link IdempotencyMessageExhausted#lastFailure()} of a message refused as a mismatch. */
    static final String MISMATCH_FAILURE =
            "payload mismatch: its key was used before with another body; not run";

    /**
     * How the {@link IdempotencyMessageExhausted#lastFailure()} of a message refused for its scope
     * begins.
     */
    static final String SCOPE_FAILURE = "scope unavailable: ";

    /** What a completed message stores: the record itself says "done". */
    static final byte[] DONE_MARKER = IdempotentInterceptor.VOID_MARKER;

    /** What a message given up after its attempts stores, so that the record says so. */
    static final byte[] EXHAUSTED_MARKER = Attempts.EXHAUSTED_MARKER;

    private static final System.Logger LOG = System.getLogger(MessageDelivery.class.getName());
    private static final int DONE = 200;

    private final IdempotencyEngine engine;
    private final ScopeResolver scope;
    private final TransactionHooks transactions;
    private final BiFunction<Class<?>, Method, MessagePolicy> policies;
    private final Consumer<IdempotencyMessageExhausted> exhausted;
    private final Map<MethodPlan, MessagePolicy> resolved = new ConcurrentHashMap<>();
    private final RecentFailures lastFailures = new RecentFailures();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /**
     * @param engine the engine
     * @param scope the scope of the current call
     * @param transactions the transaction the delivery runs in
     * @param policies the message policy of a bean's method, asked once per plan
     * @param exhausted fires {@link IdempotencyMessageExhausted} to the application's observers
     */
    MessageDelivery(
            IdempotencyEngine engine,
            ScopeResolver scope,
            TransactionHooks transactions,
            BiFunction<Class<?>, Method, MessagePolicy> policies,
            Consumer<IdempotencyMessageExhausted> exhausted) {
        this.engine = engine;
        this.scope = scope;
        this.transactions = transactions;
        this.policies = policies;
        this.exhausted = exhausted;
    }

    /**
     * @param config the application's configuration: the policies of methods come from the
     *     per-method keys over {@code idemkit.message.*}
     * @param beans fires {@link IdempotencyMessageExhausted} to the application's observers
     * @return the surface of an application
     */
    static MessageDelivery create(
            IdempotencyEngine engine,
            ScopeResolver scope,
            TransactionHooks transactions,
            IdemkitConfig config,
            BeanManager beans) {
        return new MessageDelivery(
                engine,
                scope,
                transactions,
                MessageResolution.perMethod(config.messageDefaults()),
                event -> beans.getEvent().select(IdempotencyMessageExhausted.class).fire(event));
    }

    @Override
    public String transport() {
        return JmsTransport.NAME;
    }

    @Override
    public Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception {
        Message message = (Message) invocation.getParameters()[0];
        MessagePolicy policy =
                resolved.computeIfAbsent(
                        plan, p -> policies.apply(beanClass, invocation.getMethod()));
        String key = MessageKeys.keyOf(message, policy, plan, this::warnOnce);
        if (key == null) {
            warnOnce(
                    plan.description() + "/no-id",
                    "idemkit cannot protect a message without a JMSMessageID or "
                            + policy.keyProperty()
                            + " property ("
                            + plan.description()
                            + "); it runs unprotected.");
            return invocation.proceed();
        }
        String tenant;
        try {
            tenant = scope.resolve();
        } catch (IdempotencyScopeUnavailableException e) {
            return refuseUnscoped(message, plan, e);
        }
        Operation operation =
                new Operation(
                        plan.effectiveKeyOf(key, tenant),
                        MessageKeys.fingerprint(message, policy, plan, this::warnOnce),
                        plan.fingerprintVersion(),
                        plan.policy(), // without a redactor: see MethodPolicies (C4.10)
                        "message");
        Admission admission;
        try {
            admission = engine.admit(operation);
        } catch (IdempotencyPayloadMismatchException e) {
            return refuseMismatch(message, plan, operation);
        } catch (IdempotencyInProgressException e) {
            return redeliver(plan, "its first delivery is still running", e);
        } catch (IdempotencyStorageException e) {
            return redeliver(plan, "the idempotency store failed: " + e.getMessage(), e);
        }
        if (admission instanceof Admission.Replay) {
            return null;
        }
        if (admission instanceof Admission.Unprotected) {
            return invocation.proceed();
        }
        Execution execution = ((Admission.Proceed) admission).execution();
        long attempt;
        try {
            attempt = countAttempt(operation, message, plan);
        } catch (IdempotencyStorageException e) {
            execution.release();
            return redeliver(plan, "the idempotency store failed: " + e.getMessage(), e);
        }
        if (attempt > policy.maxAttempts()) {
            return giveUp(message, plan, operation, execution, attempt - 1);
        }
        LeaseHeartbeat.Beat beat = execution.keepAliveOrRelease(true);
        try {
            invocation.proceed();
        } catch (Throwable t) {
            beat.close();
            lastFailures.put(operation.effectiveKey(), t);
            execution.release();
            throw t;
        }
        lastFailures.remove(operation.effectiveKey());
        // The record completes once the delivery's transaction commits (C11.2): until then the
        // beat goes on, never interrupting the committing thread, so that a commit slower than the
        // lease does not let a waiting duplicate take the claim over and run again (C4.7).
        execution.keepAliveUntilEnd(beat);
        finishAfterCommit(execution, DONE_MARKER, plan);
        return null;
    }

    private Object giveUp(
            Message message,
            MethodPlan plan,
            Operation operation,
            Execution execution,
            long attempts) {
        // Its own decision, not how the claim was won: the bean does not run (C11.3, C4.8).
        execution.markGivenUp();
        // The observers, then the commit, may outlast the lease: renewed until the give-up is
        // written or released, so that a duplicate does not give the message up a second time.
        execution.keepAliveUntilEnd(execution.keepAliveOrRelease(false));
        RecentFailures.Failure seen = lastFailures.get(operation.effectiveKey());
        // The class only: a message may hold application data, which the event and the warning
        // never carry; it is logged at DEBUG (FINE) below, for whoever turns that on.
        String lastFailure = seen != null ? seen.className() : RecentFailures.Failure.NOT_SEEN;
        try {
            exhausted.accept(
                    new IdempotencyMessageExhausted(
                            plan.description(),
                            operation.effectiveKey(),
                            attempts,
                            lastFailure,
                            message));
        } catch (RuntimeException e) {
            execution.release();
            throw e;
        }
        LOG.log(
                Level.WARNING,
                "idemkit gave up a message to "
                        + plan.description()
                        + " after "
                        + attempts
                        + " failed attempts (effective key "
                        + operation.effectiveKey()
                        + ", last failure: "
                        + lastFailure
                        + "); it is acknowledged and will not run again.");
        if (seen != null) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "idemkit gave up a message to "
                                    + plan.description()
                                    + " (effective key "
                                    + operation.effectiveKey()
                                    + "); its last failure: "
                                    + seen.detail());
        }
        lastFailures.remove(operation.effectiveKey());
        finishAfterCommit(execution, EXHAUSTED_MARKER, plan);
        return null;
    }

    /**
     * A message whose key was used before with another body: redelivery cannot change its body, so
     * it is acknowledged without running, and handed to the application's {@link
     * IdempotencyMessageExhausted} observers (with no attempts), so that a dead-letter forward
     * keeps it: the key may have been sent first by another producer of the destination, and the
     * real message must not vanish in a log line (C11.3). An observer that throws asks for
     * redelivery, as for an exhausted message.
     */
    private Object refuseMismatch(Message message, MethodPlan plan, Operation operation) {
        return acknowledgeUnrun(
                message,
                plan,
                operation.effectiveKey(),
                MISMATCH_FAILURE,
                "its key was used before with another body (effective key "
                        + operation.effectiveKey()
                        + ")",
                "");
    }

    /**
     * A message whose scope the application's {@code IdempotencyScopeProvider} could not give (it
     * threw, or answered nothing: a provider that reads the HTTP request has none during a
     * delivery). Running it in another scope could replay one tenant's message for another, so it
     * is not run (C5); a redelivery would meet the same provider in the same delivery context, so
     * it is not retried either: it is acknowledged and handed to the {@link
     * IdempotencyMessageExhausted} observers, which forward it to a dead-letter queue, with no
     * effective key (there is none without a scope) and the reason (C11.6). An observer that throws
     * asks for redelivery, as for an exhausted message.
     */
    private Object refuseUnscoped(
            Message message, MethodPlan plan, IdempotencyScopeUnavailableException cause) {
        // The resolver's message names the source and the failure's class only (C4.11).
        return acknowledgeUnrun(
                message,
                plan,
                "",
                SCOPE_FAILURE + cause.getMessage(),
                "its idempotency scope could not be resolved (" + cause.getMessage() + ")",
                " Make the IdempotencyScopeProvider answer during a message delivery, where there"
                        + " is no HTTP request.");
    }

    /**
     * Acknowledges a message without running it, for a reason a redelivery cannot change, and hands
     * it to the {@link IdempotencyMessageExhausted} observers with no attempts, so that a
     * dead-letter forward keeps it; an observer that throws asks for redelivery.
     */
    private Object acknowledgeUnrun(
            Message message,
            MethodPlan plan,
            String effectiveKey,
            String lastFailure,
            String why,
            String advice) {
        exhausted.accept(
                new IdempotencyMessageExhausted(
                        plan.description(), effectiveKey, 0, lastFailure, message));
        LOG.log(
                Level.WARNING,
                "idemkit acknowledged a message to "
                        + plan.description()
                        + " without running it: "
                        + why
                        + "; IdempotencyMessageExhausted observers received it."
                        + advice);
        return null;
    }

    /** Stores {@code marker} once the delivery's transaction commits; releases on rollback. */
    private void finishAfterCommit(Execution execution, byte[] marker, MethodPlan plan) {
        transactions.finishAfterCommit(
                execution, new StoredResult(DONE, List.of(), marker), plan.description());
    }

    /**
     * Asks the broker to deliver the message again: marks the transaction rollback-only and
     * returns, or throws when there is no transaction to mark (JMS then redelivers a message whose
     * listener threw).
     */
    private Object redeliver(MethodPlan plan, String why, RuntimeException cause) {
        if (transactions.markRollbackOnly()) {
            LOG.log(
                    cause instanceof IdempotencyStorageException ? Level.WARNING : Level.DEBUG,
                    () ->
                            "idemkit asked for the redelivery of a message to "
                                    + plan.description()
                                    + ": "
                                    + why
                                    + ".");
            return null;
        }
        throw cause;
    }

    private long countAttempt(Operation operation, Message message, MethodPlan plan) {
        try {
            return Attempts.count(engine, operation);
        } catch (UnsupportedOperationException e) {
            warnOnce(
                    "no-count",
                    "idemkit counts the attempts of messages with the broker's JMSXDeliveryCount"
                            + " alone: the "
                            + engine.store().name()
                            + " store cannot count them, so the count may start over after a"
                            + " server restart.");
            try {
                return message.propertyExists("JMSXDeliveryCount")
                        ? message.getIntProperty("JMSXDeliveryCount")
                        : 1;
            } catch (JMSException | RuntimeException unreadable) {
                LOG.log(
                        Level.DEBUG,
                        () -> "idemkit cannot read JMSXDeliveryCount of " + plan.description(),
                        unreadable);
                return 1;
            }
        }
    }

    private void warnOnce(String topic, String message) {
        if (warned.add(topic)) {
            LOG.log(Level.WARNING, message);
        }
    }
}
