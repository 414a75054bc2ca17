package io.idemkit.it.transaction.slowcommit;

import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * Makes the current transaction's commit slow, as a slow resource's prepare would: a
 * synchronization that sleeps in {@code beforeCompletion}. Shared by the slow-commit beans of the
 * method and the message test applications.
 */
public final class SlowCommit {

    private SlowCommit() {}

    /**
     * @param transactions the registry of the current transaction
     * @param millis how long its commit takes, at least
     * @param committing told when the commit begins
     * @param interrupted told if the sleep was interrupted
     */
    public static void register(
            TransactionSynchronizationRegistry transactions,
            long millis,
            Runnable committing,
            Runnable interrupted) {
        transactions.registerInterposedSynchronization(
                new Synchronization() {
                    @Override
                    public void beforeCompletion() {
                        committing.run();
                        try {
                            Thread.sleep(millis);
                        } catch (InterruptedException e) {
                            interrupted.run();
                            Thread.currentThread().interrupt();
                        }
                    }

                    @Override
                    public void afterCompletion(int status) {}
                });
    }
}
