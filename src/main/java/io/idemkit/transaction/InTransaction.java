package io.idemkit.transaction;

import io.idemkit.IdempotencyLeaseLostException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.core.Execution;
import io.idemkit.core.FinishOutcome;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.spi.StoredResult;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One call whose record completes inside its JTA transaction (C13), handed from the method
 * surface's interceptor, which claims the key outside the transaction, to {@link
 * InTransactionInterceptor}, which runs inside it: the outer one opens it on its thread just before
 * it proceeds, and the inner one, the first to run on that thread for the same method, takes it.
 * Belongs to one thread.
 */
public final class InTransaction {

    private static final ThreadLocal<InTransaction> PENDING = new ThreadLocal<>();
    private static final System.Logger LOG = System.getLogger(InTransaction.class.getName());

    /** The methods warned of for running without a transaction, so that each is said once. */
    private static final Set<Method> WARNED = ConcurrentHashMap.newKeySet();

    private final Method method;
    private final String description;
    private final Execution execution;
    private final LeaseHeartbeat.Beat beat;
    private final Function<Object, StoredResult> encoder;
    private final TransactionHooks transactions;
    private boolean completed;

    private InTransaction(
            Method method,
            String description,
            Execution execution,
            LeaseHeartbeat.Beat beat,
            Function<Object, StoredResult> encoder,
            TransactionHooks transactions) {
        this.method = method;
        this.description = description;
        this.execution = execution;
        this.beat = beat;
        this.encoder = encoder;
        this.transactions = transactions;
    }

    /**
     * Opens the hand-over on the calling thread.
     *
     * @param beat the call's lease heartbeat, stopped before the completion: a renewal after it
     *     would wait on the completed row until the commit, and then find the claim gone
     * @param encoder turns the method's return value into the result to store; may throw {@code
     *     IdempotencyResultNotStorableException}
     */
    public static InTransaction open(
            Method method,
            String description,
            Execution execution,
            LeaseHeartbeat.Beat beat,
            Function<Object, StoredResult> encoder,
            TransactionHooks transactions) {
        InTransaction call =
                new InTransaction(method, description, execution, beat, encoder, transactions);
        PENDING.set(call);
        return call;
    }

    /**
     * @param method the method the inner interceptor intercepts
     * @return the call opened for it on this thread, now taken; {@code null} when there is none
     */
    static InTransaction take(Method method) {
        InTransaction call = PENDING.get();
        if (call == null || !call.method.equals(method)) {
            return null;
        }
        PENDING.remove();
        return call;
    }

    /** Ends the hand-over on the outer side, whether or not the inner side took it. */
    public void close() {
        if (PENDING.get() == this) {
            PENDING.remove();
        }
    }

    /**
     * @return whether the record was completed inside the transaction, so that the outer side only
     *     confirms it once the transaction commits
     */
    public boolean completed() {
        return completed;
    }

    /**
     * Completes the record inside the transaction with the method's return value. Without an active
     * transaction, does nothing: the outer side then completes the record after the call, as for
     * any method, and a warning says so once per method.
     *
     * @throws IdempotencyLeaseLostException when the lease was taken over; the transaction is then
     *     marked rollback-only
     * @throws IdempotencyStorageException when the store or the redactor failed; likewise
     */
    void complete(Object value) {
        if (!transactions.inActiveTransaction()) {
            if (WARNED.add(method)) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "idemkit completes the record of "
                                + description
                                + " after the call, not inside its transaction"
                                + " (completion=in-transaction): the call ran without an active"
                                + " JTA transaction. Make it @Transactional, or an EJB with a"
                                + " container-managed transaction.");
            }
            return;
        }
        StoredResult result = encoder.apply(value);
        beat.close();
        FinishOutcome outcome = execution.completeInTransaction(result);
        switch (outcome) {
            case STORED -> {
                completed = true;
                transactions.holdRecord(execution.operation().effectiveKey());
            }
            case RELEASED -> {
                // Not cacheable: the outer side releases the claim after the call, as usual.
            }
            case LOST -> {
                transactions.markRollbackOnly();
                throw new IdempotencyLeaseLostException();
            }
            default -> {
                transactions.markRollbackOnly();
                throw new IdempotencyStorageException(
                        "The record of "
                                + description
                                + " could not be completed inside its transaction, which was"
                                + " rolled back: none of its writes committed. Retry with the"
                                + " same key, a bounded number of times, once the store is"
                                + " back.");
            }
        }
    }
}
