package io.idemkit.store.jdbc;

import java.time.Duration;

/**
 * How one store instance hears of completions, releases and deletes written by other instances on
 * the same database, so that its waiters (C4.3) wake at once rather than at their next poll. The
 * poll stays the correctness floor: a listener only ends pauses early, and while it cannot listen
 * the waiters poll as they would without it. Thread-safe.
 */
interface CompletionListener extends AutoCloseable {

    /**
     * How long a listener keeps its connection once no waiter of its instance waits: a minute.
     * Measured in time, not in reads of notifications: a read returns early with every
     * notification, and on a busy database many arrive a second. Here, not in {@link
     * PgCompletionListener}, so that naming the default does not load that class on other
     * databases.
     */
    Duration IDLE_PERIOD = Duration.ofMinutes(1);

    /** No listening: MariaDB, H2, or {@code idemkit.jdbc.notifications=false}. */
    CompletionListener POLLING =
            new CompletionListener() {
                @Override
                public void waiterArrives() {}

                @Override
                public void waiterLeaves() {}

                @Override
                public String status() {
                    return "polling";
                }

                @Override
                public void close() {}
            };

    /** A thread of this instance starts waiting on a key; listening starts if it had not. */
    void waiterArrives();

    /** A waiter of this instance stops waiting. */
    void waiterLeaves();

    /**
     * @return what the readiness check shows as {@code notifications}: never a driver's message
     *     (C4.11)
     */
    String status();

    /** Stops listening and gives its connection back; waiters keep polling. */
    @Override
    void close();
}
