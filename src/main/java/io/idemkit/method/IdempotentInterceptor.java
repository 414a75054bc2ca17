package io.idemkit.method;

import io.idemkit.IdempotencyResultNotStorableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.Idempotent;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.Admission;
import io.idemkit.core.CompletionMode;
import io.idemkit.core.Execution;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.spi.MethodResultCodec;
import io.idemkit.spi.StoredResult;
import io.idemkit.transaction.InTransaction;
import io.idemkit.transaction.InTransactionInterceptor;
import io.idemkit.transaction.TransactionHooks;
import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Intercepted;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The method surface (contract C7): runs an {@link Idempotent} CDI bean or EJB method once per key.
 * The first call claims the key and runs; a duplicate waits for it and gets its stored result,
 * rebuilt as the declared return type; a call that throws releases the key and its exception
 * reaches the caller unchanged. Inside a JTA transaction, the result is stored only once the
 * transaction commits, and the key is released if it rolls back.
 *
 * <p>JAX-RS resource methods are passed through untouched: the filter pair handles them (C7.4). A
 * message-driven bean's {@code onMessage} is keyed by its message, not its arguments: the message
 * surface handles it, through {@link ListenerDelivery} (C11). A method whose policy says {@code
 * completion=in-transaction} has its record completed inside its transaction instead, by {@link
 * InTransactionInterceptor} (C13).
 */
@Idempotent
@Interceptor
@Priority(IdempotentInterceptor.PRIORITY)
public class IdempotentInterceptor {

    /**
     * The interceptor's priority: {@code Interceptor.Priority.PLATFORM_BEFORE + 100} (100). It runs
     * <em>outside</em> the transaction interceptor of {@code @Transactional}, which Jakarta
     * Transactions places at {@code PLATFORM_BEFORE + 200}, so that the key is claimed before the
     * transaction begins and the result is stored only after its commit has succeeded. It also runs
     * outside every application interceptor and MicroProfile Fault Tolerance ({@code PLATFORM_AFTER
     * + 10}), so that a {@code @Retry} retries inside one claim, not around it. An EJB's
     * container-managed transaction begins before any interceptor; the interceptor then defers the
     * store to the commit through {@code TransactionSynchronizationRegistry}.
     */
    public static final int PRIORITY = Interceptor.Priority.PLATFORM_BEFORE + 100;

    /**
     * What a {@code void} method stores: the record itself is the "done" marker. A completed
     * message stores the same (C11).
     */
    public static final byte[] VOID_MARKER =
            "{\"idemkit\":\"done\"}".getBytes(StandardCharsets.UTF_8);

    private static final System.Logger LOG =
            System.getLogger(IdempotentInterceptor.class.getName());
    private static final int RETURNED = 200;

    // Not final, and set by an initializer method rather than a constructor: Jakarta Interceptors
    // requires a public no-arg constructor, and Payara's EJB container creates the interceptor of
    // an EJB through it (NoSuchMethodError on <init>() otherwise); CDI containers inject the
    // initializer before the first invocation either way.
    private IdempotencyEngine engine;
    private ScopeResolver scope;
    private MethodPlans plans;
    private MethodResultCodec codec;
    private TransactionHooks transactions;
    private IdemkitConfig config;
    private Instance<ListenerDelivery> deliveries;
    private Bean<?> intercepted;

    /** For the container; the dependencies come through {@link #inject}. */
    public IdempotentInterceptor() {}

    @Inject
    void inject(
            IdempotencyEngine engine,
            ScopeResolver scope,
            MethodPlans plans,
            MethodResultCodec codec,
            TransactionHooks transactions,
            IdemkitConfig config,
            Instance<ListenerDelivery> deliveries,
            @Intercepted Bean<?> intercepted) {
        this.engine = engine;
        this.scope = scope;
        this.plans = plans;
        this.codec = codec;
        this.transactions = transactions;
        this.config = config;
        this.deliveries = deliveries;
        this.intercepted = intercepted;
    }

    /** The transport's delivery bean: one per transport, each a bean of the library. */
    private ListenerDelivery delivery(MethodPlan plan) {
        for (ListenerDelivery delivery : deliveries) {
            if (delivery.transport().equals(plan.transport())) {
                return delivery;
            }
        }
        throw new IllegalStateException(
                "idemkit has no delivery for the "
                        + plan.transport()
                        + " listener "
                        + plan.description());
    }

    @AroundInvoke
    Object around(InvocationContext invocation) throws Exception {
        Method method = invocation.getMethod();
        Class<?> beanClass = beanClass(invocation);
        MethodPlan plan = plans.planFor(beanClass, method);
        if (plan.passesThrough()) {
            return invocation.proceed();
        }
        if (plan.receivesMessages()) {
            return delivery(plan).deliver(invocation, beanClass, plan);
        }
        Object[] arguments = invocation.getParameters();
        Operation operation =
                new Operation(
                        plan.effectiveKey(arguments, scope.resolveCaller(), plans.json()),
                        plan.fingerprint(arguments, plans.json()),
                        plan.fingerprintVersion(),
                        plan.policy(),
                        "method");
        if (plan.policy().completion() == CompletionMode.IN_TRANSACTION
                && transactions.holdsRecord(operation.effectiveKey())) {
            throw new IllegalStateException(
                    "idemkit: "
                            + plan.description()
                            + " was called again with a key whose record this same transaction"
                            + " completed (completion=in-transaction, C13). The record commits only"
                            + " with the transaction and holds its row until then, so this call"
                            + " could only wait for itself. Call it once per key in a transaction,"
                            + " and reuse the first call's result.");
        }
        Admission admission = engine.admit(operation);
        if (admission instanceof Admission.Replay replay) {
            Object value = decode(plan, replay.result());
            return plan.returnsStage() ? CompletableFuture.completedFuture(value) : value;
        }
        if (admission instanceof Admission.Unprotected) {
            return invocation.proceed();
        }
        Execution execution = ((Admission.Proceed) admission).execution();
        return plan.returnsStage()
                ? runStage(invocation, plan, execution)
                : run(invocation, plan, execution);
    }

    private Object run(InvocationContext invocation, MethodPlan plan, Execution execution)
            throws Exception {
        InTransaction inTransaction = null;
        Object value;
        LeaseHeartbeat.Beat beat = execution.keepAliveOrRelease(true);
        try {
            if (plan.policy().completion() == CompletionMode.IN_TRANSACTION) {
                // Completed inside the transaction by InTransactionInterceptor (C13).
                inTransaction =
                        InTransaction.open(
                                invocation.getMethod(),
                                plan.description(),
                                execution,
                                beat,
                                v -> encode(plan, v),
                                transactions);
            }
            value = invocation.proceed();
        } catch (Throwable t) {
            beat.close();
            // A transaction that held the completion rolled back with it: the claim is free.
            execution.release();
            throw t;
        } finally {
            if (inTransaction != null) {
                inTransaction.close();
            }
        }
        if (inTransaction != null && inTransaction.completed()) {
            // Stopped before the completion already, for the reason InTransaction.open gives: the
            // record's row is the transaction's until it commits (C13).
            beat.close();
            transactions.afterCommit(
                    execution, () -> execution.confirmCommitted(), plan.description());
            return value;
        }
        StoredResult result;
        try {
            result = encode(plan, value);
        } catch (IdempotencyResultNotStorableException e) {
            beat.close();
            execution.hold();
            throw e;
        }
        // Inside a transaction the record completes only once it commits: until then the beat
        // goes on, never interrupting the committing thread, so that a commit slower than the
        // lease does not let a waiting duplicate take the claim over and run again (C4.7).
        execution.keepAliveUntilEnd(beat);
        transactions.finishAfterCommit(execution, result, plan.description());
        return value;
    }

    private Object runStage(InvocationContext invocation, MethodPlan plan, Execution execution)
            throws Exception {
        // The stage completes on other threads: the heartbeat must never interrupt this one.
        LeaseHeartbeat.Beat beat = execution.keepAliveOrRelease(false);
        Object returned;
        try {
            returned = invocation.proceed();
        } catch (Throwable t) {
            beat.close();
            execution.release();
            throw t;
        }
        if (returned == null) {
            beat.close();
            execution.release();
            return null;
        }
        CompletableFuture<Object> answer = new CompletableFuture<>();
        ((CompletionStage<?>) returned)
                .whenComplete(
                        (value, failure) -> {
                            beat.close();
                            if (failure != null) {
                                execution.release();
                                answer.completeExceptionally(failure);
                                return;
                            }
                            StoredResult result;
                            try {
                                result = encode(plan, value);
                            } catch (IdempotencyResultNotStorableException e) {
                                execution.hold();
                                answer.completeExceptionally(e);
                                return;
                            }
                            execution.finish(result);
                            answer.complete(value);
                        });
        return answer;
    }

    private StoredResult encode(MethodPlan plan, Object value) {
        if (plan.returnsVoid()) {
            return new StoredResult(RETURNED, List.of(), VOID_MARKER);
        }
        Type type = plan.resultType();
        byte[] bytes;
        try {
            bytes = codec.encode(value, type);
            // Proven now, not at the first replay: a result stored is a result that replays.
            codec.decode(bytes, type);
        } catch (RuntimeException e) {
            throw new IdempotencyResultNotStorableException(
                    "the result codec cannot store a "
                            + (value == null ? "null" : value.getClass().getName())
                            + " and rebuild it as "
                            + type.getTypeName()
                            + " (returned by "
                            + plan.description()
                            + ")",
                    plan.policy().leaseTtl(),
                    e);
        }
        if (bytes.length > config.maxBodyBytes()) {
            throw new IdempotencyResultNotStorableException(
                    "the result of "
                            + plan.description()
                            + " is "
                            + bytes.length
                            + " bytes, above idemkit.max-body-bytes="
                            + config.maxBodyBytes(),
                    plan.policy().leaseTtl(),
                    null);
        }
        return new StoredResult(RETURNED, List.of(), bytes);
    }

    private Object decode(MethodPlan plan, StoredResult result) {
        if (plan.returnsVoid()) {
            return null;
        }
        try {
            return codec.decode(result.body(), plan.resultType());
        } catch (RuntimeException e) {
            // The class only: a codec's message may quote the stored result, which is application
            // data; the exception itself goes to DEBUG (C4.11).
            LOG.log(
                    Level.WARNING,
                    "idemkit cannot rebuild a stored result of "
                            + plan.description()
                            + " ("
                            + e.getClass().getName()
                            + "; the codec's exception is logged at DEBUG).");
            LOG.log(
                    Level.DEBUG,
                    "idemkit cannot rebuild a stored result of " + plan.description(),
                    e);
            throw new IdempotencyStorageException(
                    "The stored result of "
                            + plan.description()
                            + " cannot be rebuilt as "
                            + plan.resultType().getTypeName()
                            + " by the result codec; the call was refused rather than run"
                            + " twice. The codec or the result's class changed since it was"
                            + " stored: retry once the record expires, or change"
                            + " @Idempotent(name) to start afresh.",
                    e);
        }
    }

    private Class<?> beanClass(InvocationContext invocation) {
        if (intercepted != null) {
            return intercepted.getBeanClass();
        }
        // Weld, OpenWebBeans and CGLIB name their subclasses with "$$".
        Class<?> type = invocation.getTarget().getClass();
        while (type.getSuperclass() != null
                && (type.isSynthetic() || type.getName().contains("$$"))) {
            type = type.getSuperclass();
        }
        return type;
    }
}
