package io.idemkit.interceptor;

import java.util.function.Consumer;

/**
 * How a method's outcome waits for the JTA transaction it ran in: the record is completed only
 * after that transaction commits, and released if it rolls back.
 */
interface TransactionHooks {

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
     * Marks the current transaction for rollback, the way a message-driven bean asks its broker to
     * redeliver a message without throwing.
     *
     * @return whether a transaction was there to mark; {@code false} leaves the caller to throw
     */
    boolean markRollbackOnly();

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
            };
}
