package io.idemkit.transaction;

import io.idemkit.core.Execution;
import io.idemkit.spi.StoredResult;
import java.util.function.Consumer;

/**
 * How a method's outcome waits for the JTA transaction it ran in: the record is completed only
 * after that transaction commits, and released if it rolls back.
 */
public interface TransactionHooks {

    /** What the current transaction means for an outcome. */
    enum Deferral {
        /** No transaction: store the outcome now. */
        NONE,
        /** The callback runs once the transaction has ended. */
        DEFERRED,
        /** The transaction can only roll back: release now. */
        ROLLING_BACK
    }

    /**
     * @param afterCompletion called with {@code true} once the current transaction has committed,
     *     {@code false} once it has rolled back
     * @return whether, and how, the outcome waits for a transaction
     */
    Deferral deferToCompletion(Consumer<Boolean> afterCompletion);

    /**
     * Ends {@code execution} with {@code result} once the current transaction commits, or at once
     * when there is none; releases the claim if the transaction rolls back, or if whether it
     * commits cannot be known (a result that may be rolled back is never replayed).
     *
     * @param execution the claim to end
     * @param result what to store
     * @param description the operation, for the warning
     */
    default void finishAfterCommit(Execution execution, StoredResult result, String description) {
        afterCommit(execution, () -> execution.finish(result), description);
    }

    /**
     * Runs {@code committed} once the current transaction commits, or at once when there is none;
     * releases the claim if the transaction rolls back, or if whether it commits cannot be known.
     *
     * @param execution the claim, released on a rollback
     * @param committed what ends it on a commit
     * @param description the operation, for the warning
     */
    default void afterCommit(Execution execution, Runnable committed, String description) {
        Deferral deferral;
        try {
            deferral =
                    deferToCompletion(
                            commit -> {
                                if (commit) {
                                    committed.run();
                                } else {
                                    execution.release();
                                }
                            });
        } catch (RuntimeException e) {
            System.getLogger(TransactionHooks.class.getName())
                    .log(
                            System.Logger.Level.WARNING,
                            "idemkit could not wait for the transaction of "
                                    + description
                                    + " to end; the key is released and the result not stored.",
                            e);
            deferral = Deferral.ROLLING_BACK;
        }
        switch (deferral) {
            case NONE -> committed.run();
            case ROLLING_BACK -> execution.release();
            case DEFERRED -> {
                // Duplicates wait on the claim until the transaction's end decides.
            }
        }
    }

    /**
     * @return whether the calling thread runs in an active transaction, one that can still commit
     */
    boolean inActiveTransaction();

    /**
     * Marks the current transaction for rollback, the way a message-driven bean asks its broker to
     * redeliver a message without throwing.
     *
     * @return whether a transaction was there to mark; {@code false} leaves the caller to throw
     */
    boolean markRollbackOnly();

    /**
     * Remembers, in the current transaction, that it completed the record of {@code effectiveKey}
     * (C13): until it ends, the transaction holds that record's row.
     *
     * @param effectiveKey the record's key
     */
    default void holdRecord(String effectiveKey) {}

    /**
     * @param effectiveKey a record's key
     * @return whether the calling thread's transaction completed that record and has not ended, so
     *     that a claim of the key could only wait for this very transaction
     */
    default boolean holdsRecord(String effectiveKey) {
        return false;
    }

    /** For runtimes without Jakarta Transactions. */
    TransactionHooks NONE =
            new TransactionHooks() {
                @Override
                public Deferral deferToCompletion(Consumer<Boolean> afterCompletion) {
                    return Deferral.NONE;
                }

                @Override
                public boolean markRollbackOnly() {
                    return false;
                }

                @Override
                public boolean inActiveTransaction() {
                    return false;
                }
            };
}
