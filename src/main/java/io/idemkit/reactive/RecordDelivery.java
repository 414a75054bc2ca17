package io.idemkit.reactive;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyRecordExhausted;
import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.MessagePolicy;
import io.idemkit.config.ProcessorDuplicates;
import io.idemkit.core.Admission;
import io.idemkit.core.Execution;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.MethodPolicyLookup;
import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.method.Attempts;
import io.idemkit.method.IdempotentInterceptor;
import io.idemkit.method.ListenerDelivery;
import io.idemkit.method.MethodPlan;
import io.idemkit.spi.MethodResultCodec;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.interceptor.InvocationContext;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The Reactive Messaging surface (contract C17): an {@code @Idempotent} {@code @Incoming} method
 * that takes a {@code Message<T>}, a consumer or a processor ({@link MethodForm}), runs once per
 * record key.
 *
 * <ul>
 *   <li>The key is the record's header {@link MessagePolicy#keyProperty()} when the producer set
 *       it, else its topic, partition, offset and timestamp ({@link RecordIdentity}, C17.1).
 *   <li>The method receives a {@link GuardedMessage}: a consumer's acknowledgement stores the
 *       completion first, then acknowledges the record, so that a record is never committed before
 *       its completion is stored; a failure after the call releases the claim, and the connector's
 *       failure strategy applies (C17.2).
 *   <li>A duplicate of a completed record is acknowledged without running. A duplicate of one that
 *       still runs waits until it completes, is released or its lease lapses: Kafka has no
 *       redelivery to ask for but a nack, which stops the channel on Open Liberty (C17.3).
 *   <li>A run that fails during the call runs again in place while attempts are left, each counted
 *       in the store; the last failure gives the record up ({@link RecordOutcomes}, C17.4).
 *   <li>A storage failure under fail-closed nacks the record (C17.5).
 *   <li>A processor's outgoing payload is stored when it returns, and a duplicate sends it on again
 *       ({@link Outputs}, C17.6).
 * </ul>
 *
 * <p>The one class of the library, with those it calls, that uses Reactive Messaging: loaded only
 * when such a method receives a message. Thread-safe.
 */
final class RecordDelivery implements ListenerDelivery {

    private static final System.Logger LOG = System.getLogger(RecordDelivery.class.getName());
    private static final int DONE = 200;
    private static final Duration IN_PROGRESS_PAUSE = Duration.ofMillis(200);

    /** How Vert.x names its event-loop threads, where nothing may block. */
    private static final String EVENT_LOOP = "vert.x-eventloop-thread-";

    private final IdempotencyEngine engine;
    private final ScopeResolver scope;
    private final BiFunction<Class<?>, Method, RecordKeying> keyings;
    private final RecordOutcomes outcomes;
    private final Outputs outputs;
    private final Map<MethodPlan, RecordKeying> resolved = new ConcurrentHashMap<>();
    private final Map<Method, MethodForm> forms = new ConcurrentHashMap<>();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /**
     * @param keyings how a bean's method keys and counts its records, asked once per plan
     * @param outcomes how records end without a successful run
     * @param outputs the processors' outgoing payloads
     */
    RecordDelivery(
            IdempotencyEngine engine,
            ScopeResolver scope,
            BiFunction<Class<?>, Method, RecordKeying> keyings,
            RecordOutcomes outcomes,
            Outputs outputs) {
        this.engine = engine;
        this.scope = scope;
        this.keyings = keyings;
        this.outcomes = outcomes;
        this.outputs = outputs;
    }

    /**
     * @param config the application's configuration: the per-method keys over {@code
     *     idemkit.message.*}, as for message-driven beans
     * @param codec the application's result codec, for the processors' outgoing payloads
     * @param lookup finds the extractor beans the methods name
     */
    static RecordDelivery create(
            IdempotencyEngine engine,
            ScopeResolver scope,
            IdemkitConfig config,
            BeanManager beans,
            MethodResultCodec codec,
            MethodPolicyLookup lookup) {
        return new RecordDelivery(
                engine,
                scope,
                RecordKeying.perMethod(config.messageDefaults(), lookup),
                new RecordOutcomes(
                        event ->
                                beans.getEvent()
                                        .select(IdempotencyRecordExhausted.class)
                                        .fire(event),
                        config.exhaustedRecords()),
                new Outputs(
                        codec,
                        config.maxBodyBytes(),
                        config.processorDuplicates() == ProcessorDuplicates.RE_EMIT));
    }

    @Override
    public String transport() {
        return ReactiveMessagingTransport.NAME;
    }

    @Override
    public Object deliver(InvocationContext invocation, Class<?> beanClass, MethodPlan plan)
            throws Exception {
        Message<?> message = (Message<?>) invocation.getParameters()[0];
        if (Thread.currentThread().getName().startsWith(EVENT_LOOP)) {
            warnOnce(
                    plan.description() + "/event-loop",
                    "idemkit receives the records of "
                            + plan.description()
                            + " on a Vert.x event-loop thread ("
                            + Thread.currentThread().getName()
                            + "): its store calls, and a duplicate's wait for a running record,"
                            + " block that thread and every channel it serves. Annotate the method"
                            + " @io.smallrye.reactive.messaging.annotations.Blocking (on WildFly,"
                            + " with the system property"
                            + " jboss.as.reactive.messaging.experimental=true).");
        }
        RecordKeying keying =
                resolved.computeIfAbsent(
                        plan, p -> keyings.apply(beanClass, invocation.getMethod()));
        MessagePolicy policy = keying.policy();
        MethodForm form = forms.computeIfAbsent(invocation.getMethod(), MethodForm::of);
        RecordIdentity identity = RecordIdentity.of(message, keying, plan, this::warnOnce);
        if (identity.key() == null) {
            warnOnce(
                    plan.description() + "/no-record",
                    "idemkit protects the Kafka records of @Incoming methods, and the messages"
                            + " their key extractor gives a key, and "
                            + plan.description()
                            + " received a message that is neither (another connector, or the"
                            + " Kafka client is not visible to the application: on Open Liberty,"
                            + " the WAR carries org.apache.kafka:kafka-clients); it runs"
                            + " unprotected.");
            return invocation.proceed();
        }
        String tenant;
        try {
            tenant = scope.resolve();
        } catch (IdempotencyScopeUnavailableException e) {
            return outcomes.acknowledgeUnrun(
                    message,
                    plan,
                    form,
                    "",
                    RecordOutcomes.SCOPE_FAILURE + e.getMessage(),
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
            return outcomes.acknowledgeUnrun(
                    message,
                    plan,
                    form,
                    operation.effectiveKey(),
                    RecordOutcomes.MISMATCH_FAILURE,
                    "its key was used before with another payload (effective key "
                            + operation.effectiveKey()
                            + ")");
        } catch (IdempotencyStorageException e) {
            return storeFailed(message, plan, form, e);
        }
        if (admission instanceof Admission.Replay replay) {
            try {
                return outputs.replay(message, form, replay.result());
            } catch (RuntimeException e) {
                return storeFailed(message, plan, form, e);
            }
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
            return storeFailed(message, plan, form, e);
        }
        if (attempt > policy.maxAttempts()) {
            return outcomes.giveUp(message, plan, form, execution, attempt - 1, null);
        }
        return run(invocation, message, plan, form, policy, execution, attempt);
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
            MethodForm form,
            MessagePolicy policy,
            Execution execution,
            long firstAttempt)
            throws Exception {
        String key = execution.operation().effectiveKey();
        // Never interrupts: the method's acknowledgement may come on another thread.
        LeaseHeartbeat.Beat beat = execution.keepAliveOrRelease(false);
        GuardedMessage.Outcome outcome =
                new GuardedMessage.Outcome() {
                    @Override
                    public void acknowledged() {
                        outcomes.succeeded(key);
                        if (!form.processor()) { // a processor's is stored when it returns
                            execution.finish(
                                    new StoredResult(
                                            DONE, List.of(), IdempotentInterceptor.VOID_MARKER));
                        }
                    }

                    @Override
                    public void failed(Throwable failure) {
                        outcomes.failed(key, failure);
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
                if (!form.processor()) {
                    return run.followedBy();
                }
                outcomes.succeeded(key);
                guard.abandon(); // from now on, the outgoing message's nack is the connector's
                return outputs.store(
                        run.returned(),
                        form,
                        execution,
                        plan.description(),
                        failure -> outcome.failed(failure));
            }
            outcomes.failed(key, run.failure());
            if (attempt >= policy.maxAttempts()) {
                beat.close();
                return outcomes.giveUp(message, plan, form, execution, attempt, run);
            }
            try {
                attempt = countAttempt(execution.operation());
                Thread.sleep(pause(attempt));
            } catch (IdempotencyStorageException | InterruptedException e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                beat.close();
                execution.release();
                return run.passedOn(form);
            }
            run.dropped();
        }
    }

    /** The pause before attempt {@code attempt} (2 or more): 200 ms, doubling, at most 2 s. */
    private static long pause(long attempt) {
        return Math.min(200L << Math.min(attempt - 2, 4), 2_000L);
    }

    /**
     * The store failed under fail-closed, or a stored payload cannot be rebuilt: nacked, so the
     * connector's failure strategy applies (C17.5).
     */
    private static Object storeFailed(
            Message<?> message, MethodPlan plan, MethodForm form, RuntimeException e) {
        LOG.log(
                Level.WARNING,
                "idemkit nacked a record for "
                        + plan.description()
                        + ": "
                        + (e instanceof IdempotencyStorageException
                                ? "the idempotency store failed: " + e.getMessage()
                                : "its stored outgoing payload cannot be rebuilt ("
                                        + e.getClass().getName()
                                        + ")"));
        return form.nothing(message.nack(e));
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
