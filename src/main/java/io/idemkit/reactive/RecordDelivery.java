package io.idemkit.reactive;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyRecordExhausted;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.config.ExhaustedRecords;
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
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.MessageResolution;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The Reactive Messaging surface (contract C17): an {@code @Idempotent} {@code @Incoming} method
 * that takes a {@code Message<T>} and returns a {@code CompletionStage} runs once per record key.
 *
 * <ul>
 *   <li>The key is the record's header {@link MessagePolicy#keyProperty()} when the producer set
 *       it, else its topic, partition, offset and timestamp ({@link RecordIdentity}, C17.1).
 *   <li>The method receives a {@link GuardedMessage}: its acknowledgement stores the completion
 *       first, then acknowledges the record, so that a record is never committed before its
 *       completion is stored; its nack, a throw or a failed stage release the claim, and the
 *       connector's failure strategy applies (C17.2).
 *   <li>A duplicate of a completed record is acknowledged without running. A duplicate of one that
 *       still runs waits until it completes, is released or its lease lapses: Kafka has no
 *       redelivery to ask for but a nack, which stops the channel on Open Liberty (C17.3).
 *   <li>Every run counts one attempt in the store; once the count passes {@link
 *       MessagePolicy#maxAttempts()}, the method is not run: {@link IdempotencyRecordExhausted}
 *       fires, the record is completed as given up and acknowledged (C17.4).
 *   <li>A storage failure under fail-closed nacks the record (C17.5).
 * </ul>
 *
 * <p>The one class of the library, with those it calls, that uses Reactive Messaging: loaded only
 * when such a method receives a message. Thread-safe.
 */
final class RecordDelivery implements ListenerDelivery {

    /** What a given-up record stores, so that the record says so. */
    static final byte[] EXHAUSTED_MARKER =
            "{\"idemkit\":\"exhausted\"}".getBytes(StandardCharsets.UTF_8);

    /** The {@link IdempotencyRecordExhausted#lastFailure()} of a record refused as a mismatch. */
    static final String MISMATCH_FAILURE =
            "payload mismatch: its key was used before with another payload; not run";

    /** How the {@link IdempotencyRecordExhausted#lastFailure()} of an unscoped record begins. */
    static final String SCOPE_FAILURE = "scope unavailable: ";

    private static final System.Logger LOG = System.getLogger(RecordDelivery.class.getName());
    private static final int DONE = 200;
    private static final Duration IN_PROGRESS_PAUSE = Duration.ofMillis(200);

    private final IdempotencyEngine engine;
    private final ScopeResolver scope;
    private final BiFunction<Class<?>, Method, MessagePolicy> policies;
    private final Consumer<IdempotencyRecordExhausted> exhausted;
    private final ExhaustedRecords exhaustedRecords;
    private final Map<MethodPlan, MessagePolicy> resolved = new ConcurrentHashMap<>();
    private final RecentFailures lastFailures = new RecentFailures();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /**
     * @param policies the message policy of a bean's method, asked once per plan
     * @param exhausted fires {@link IdempotencyRecordExhausted} to the application's observers
     * @param exhaustedRecords what becomes of a record given up, once the observers ran
     */
    RecordDelivery(
            IdempotencyEngine engine,
            ScopeResolver scope,
            BiFunction<Class<?>, Method, MessagePolicy> policies,
            Consumer<IdempotencyRecordExhausted> exhausted,
            ExhaustedRecords exhaustedRecords) {
        this.engine = engine;
        this.scope = scope;
        this.policies = policies;
        this.exhausted = exhausted;
        this.exhaustedRecords = exhaustedRecords;
    }

    /**
     * @param config the application's configuration: the per-method keys over {@code
     *     idemkit.message.*}, as for message-driven beans
     */
    static RecordDelivery create(
            IdempotencyEngine engine,
            ScopeResolver scope,
            IdemkitConfig config,
            BeanManager beans) {
        return new RecordDelivery(
                engine,
                scope,
                (beanClass, method) ->
                        MessageResolution.forMethod(
                                ConfigLookup.current(),
                                beanClass,
                                method,
                                config.messageDefaults()),
                event -> beans.getEvent().select(IdempotencyRecordExhausted.class).fire(event),
                config.exhaustedRecords());
    }

    @Override
    public String transport() {
        return ReactiveMessagingTransport.NAME;
    }

    @Override
    public Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception {
        Message<?> message = (Message<?>) invocation.getParameters()[0];
        MessagePolicy policy =
                resolved.computeIfAbsent(
                        plan, p -> policies.apply(beanClass, invocation.getMethod()));
        RecordIdentity identity = RecordIdentity.of(message, policy, plan, this::warnOnce);
        if (identity.key() == null) {
            warnOnce(
                    plan.description() + "/no-record",
                    "idemkit protects the Kafka records of @Incoming methods only, and "
                            + plan.description()
                            + " received a message that is none (another connector, or the Kafka"
                            + " client is not visible to the application: on Open Liberty, the WAR"
                            + " carries org.apache.kafka:kafka-clients); it runs unprotected.");
            return invocation.proceed();
        }
        String tenant;
        try {
            tenant = scope.resolve();
        } catch (IdempotencyScopeUnavailableException e) {
            return acknowledgeUnrun(
                    message,
                    plan,
                    "",
                    SCOPE_FAILURE + e.getMessage(),
                    "its idempotency scope could not be resolved (" + e.getMessage() + ")");
        }
        Operation operation =
                new Operation(
                        plan.effectiveKeyOf(identity.key(), tenant),
                        identity.fingerprint(),
                        plan.fingerprintVersion(),
                        plan.policy(),
                        "message");
        Admission admission;
        try {
            admission = admit(operation, plan);
        } catch (IdempotencyPayloadMismatchException e) {
            return acknowledgeUnrun(
                    message,
                    plan,
                    operation.effectiveKey(),
                    MISMATCH_FAILURE,
                    "its key was used before with another payload (effective key "
                            + operation.effectiveKey()
                            + ")");
        } catch (IdempotencyStorageException e) {
            return storeFailed(message, plan, e);
        }
        if (admission instanceof Admission.Replay) {
            return message.ack();
        }
        if (admission instanceof Admission.Unprotected) {
            return invocation.proceed();
        }
        Execution execution = ((Admission.Proceed) admission).execution();
        long attempt;
        try {
            attempt = countAttempt(operation);
        } catch (IdempotencyStorageException e) {
            execution.release();
            return storeFailed(message, plan, e);
        }
        if (attempt > policy.maxAttempts()) {
            return giveUp(message, plan, operation, execution, attempt - 1, null);
        }
        return run(invocation, message, plan, policy, operation, execution, attempt);
    }

    /**
     * Admits the record, waiting as long as its first run holds the key: until it completes, is
     * released, or its lease lapses and this run takes the claim over.
     */
    private Admission admit(Operation operation, MethodPlan plan) throws InterruptedException {
        while (true) {
            try {
                return engine.admit(operation);
            } catch (IdempotencyInProgressException e) {
                LOG.log(
                        Level.DEBUG,
                        () ->
                                "idemkit holds a record for "
                                        + plan.description()
                                        + " while its first delivery still runs (effective key "
                                        + operation.effectiveKey()
                                        + ")");
                Thread.sleep(IN_PROGRESS_PAUSE.toMillis());
            }
        }
    }

    /**
     * Runs the method, and again while it fails during the call (it throws, nacks or returns a
     * failed stage) and attempts are left, each attempt counted in the store; gives the record up
     * when the last one fails (C17.4). A failure after the call returned (a stage that fails later)
     * releases the claim and reaches the connector: the method cannot be called again then.
     */
    private Object run(
            InvocationContext invocation,
            Message<?> message,
            MethodPlan plan,
            MessagePolicy policy,
            Operation operation,
            Execution execution,
            long firstAttempt)
            throws Exception {
        String key = operation.effectiveKey();
        // Never interrupts: the method's acknowledgement may come on another thread.
        LeaseHeartbeat.Beat beat = execution.keepAliveOrRelease(false);
        GuardedMessage.Outcome outcome =
                new GuardedMessage.Outcome() {
                    @Override
                    public void acknowledged() {
                        lastFailures.remove(key);
                        execution.finish(
                                new StoredResult(
                                        DONE, List.of(), IdempotentInterceptor.VOID_MARKER));
                    }

                    @Override
                    public void failed(Throwable failure) {
                        lastFailures.put(key, failure);
                        execution.release();
                    }
                };
        long attempt = firstAttempt;
        while (true) {
            GuardedMessage guard = GuardedMessage.guard(message, outcome);
            invocation.setParameters(new Object[] {guard.message()});
            Attempt run = Attempt.of(invocation, guard);
            if (run.failure() == null) {
                // Until the method acknowledges or nacks, on whatever thread, the lease is renewed.
                execution.keepAliveUntilEnd(beat);
                return run.followedBy(guard);
            }
            lastFailures.put(key, run.failure());
            if (attempt >= policy.maxAttempts()) {
                beat.close();
                return giveUp(message, plan, operation, execution, attempt, run);
            }
            try {
                attempt = countAttempt(operation);
                Thread.sleep(pause(attempt));
            } catch (IdempotencyStorageException | InterruptedException e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                beat.close();
                execution.release();
                return run.passedOn();
            }
            run.dropped();
        }
    }

    /** The pause before attempt {@code attempt} (2 or more): 200 ms, doubling, at most 2 s. */
    private static long pause(long attempt) {
        return Math.min(200L << Math.min(attempt - 2, 4), 2_000L);
    }

    /**
     * Gives a record up: its attempts are spent, by earlier deliveries ({@code failed} is {@code
     * null}, the method does not run) or by this one's last run.
     */
    private Object giveUp(
            Message<?> message,
            MethodPlan plan,
            Operation operation,
            Execution execution,
            long attempts,
            Attempt failed)
            throws Exception {
        // Its own decision, not how the claim was won (C17.4, C4.8).
        execution.markGivenUp();
        execution.keepAliveUntilEnd(execution.keepAliveOrRelease(false));
        String key = operation.effectiveKey();
        RecentFailures.Failure seen = lastFailures.get(key);
        String lastFailure = seen != null ? seen.className() : RecentFailures.Failure.NOT_SEEN;
        try {
            exhausted.accept(
                    new IdempotencyRecordExhausted(
                            plan.description(), key, attempts, lastFailure, message));
        } catch (RuntimeException e) {
            execution.release();
            return failed != null ? failed.passedOn() : message.nack(e);
        }
        LOG.log(
                Level.WARNING,
                "idemkit gave up a record for "
                        + plan.description()
                        + " after "
                        + attempts
                        + " failed attempts (effective key "
                        + key
                        + ", last failure: "
                        + lastFailure
                        + "); it is "
                        + (exhaustedRecords == ExhaustedRecords.NACK
                                ? "nacked (idemkit.message.exhausted=nack)"
                                : "acknowledged")
                        + " and will not run again.");
        if (seen != null) {
            LOG.log(
                    Level.DEBUG,
                    () ->
                            "idemkit gave up a record for "
                                    + plan.description()
                                    + " (effective key "
                                    + key
                                    + "); its last failure: "
                                    + seen.detail());
        }
        lastFailures.remove(key);
        execution.finish(new StoredResult(DONE, List.of(), EXHAUSTED_MARKER));
        if (exhaustedRecords == ExhaustedRecords.NACK) {
            return failed != null
                    ? failed.nacked(message)
                    : message.nack(
                            new IllegalStateException(
                                    "idemkit gave the record up after "
                                            + attempts
                                            + " failed attempts"));
        }
        if (failed != null) {
            failed.dropped();
        }
        return message.ack();
    }

    /**
     * Acknowledges a record without running it, for a reason a redelivery cannot change, and hands
     * it to the {@link IdempotencyRecordExhausted} observers with no attempts, so that a
     * dead-letter forward keeps it; an observer that throws nacks it (C17.4).
     */
    private Object acknowledgeUnrun(
            Message<?> message,
            MethodPlan plan,
            String effectiveKey,
            String lastFailure,
            String why) {
        try {
            exhausted.accept(
                    new IdempotencyRecordExhausted(
                            plan.description(), effectiveKey, 0, lastFailure, message));
        } catch (RuntimeException e) {
            return message.nack(e);
        }
        LOG.log(
                Level.WARNING,
                "idemkit acknowledged a record for "
                        + plan.description()
                        + " without running it: "
                        + why
                        + "; IdempotencyRecordExhausted observers received it.");
        return message.ack();
    }

    /** The store failed under fail-closed: nacked, so the connector's failure strategy applies. */
    private Object storeFailed(Message<?> message, MethodPlan plan, RuntimeException e) {
        LOG.log(
                Level.WARNING,
                "idemkit nacked a record for "
                        + plan.description()
                        + ": the idempotency store failed: "
                        + e.getMessage());
        return message.nack(e);
    }

    private long countAttempt(Operation operation) {
        try {
            return Attempts.count(engine, operation);
        } catch (UnsupportedOperationException e) {
            warnOnce(
                    "no-count",
                    "idemkit cannot count the attempts of records: the "
                            + engine.store().name()
                            + " store cannot count them, so records that keep failing are never"
                            + " given up.");
            return 1;
        }
    }

    private void warnOnce(String topic, String message) {
        if (warned.add(topic)) {
            LOG.log(Level.WARNING, message);
        }
    }
}
