package io.idemkit.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The message surface's counterpart of the reference's "lease shorter than the visibility timeout"
 * (contract C11.4), checked at deployment for every {@code @Idempotent} message-driven bean.
 *
 * <p>JMS has no visibility timeout. What bounds how long a delivery stays unacknowledged while its
 * consumer lives is the JTA transaction timeout: when it passes, the transaction manager rolls the
 * delivery back and the broker delivers the message again. So the transaction timeout plays the
 * visibility timeout's part, and the two rules follow:
 *
 * <ul>
 *   <li><b>The lease is shorter than the transaction timeout.</b> While the bean runs, the lease
 *       heartbeat renews its claim, so a short lease never lets a redelivery run beside a bean that
 *       still runs. A lease as long as the transaction timeout or longer lets a claim outlive the
 *       delivery that made it: after a crash, each redelivery meets a claim that nobody renews,
 *       waits, rolls back and uses up one of the broker's deliveries, until the broker moves a
 *       message that never ran to its exception destination.
 *   <li><b>The wait is shorter than the transaction timeout.</b> A duplicate waits for the first
 *       delivery inside its own transaction; a wait as long as the transaction timeout is cut short
 *       by a rollback the transaction manager makes, and logs it as a failure.
 * </ul>
 *
 * <p>Transactions without a timeout bound nothing, and the rule has nothing to check.
 */
public final class MessageLeaseRule {

    private MessageLeaseRule() {}

    /**
     * @param where the bean's method, as the message should name it
     * @param lease the method's effective lease
     * @param wait the method's effective wait timeout
     * @param transactionTimeout the transaction timeout the bean runs under, and where it came from
     * @return one message per broken rule, empty when both hold
     */
    public static List<String> problems(
            String where, Duration lease, Duration wait, TransactionTimeout transactionTimeout) {
        List<String> problems = new ArrayList<>();
        if (!transactionTimeout.bounds()) {
            return problems;
        }
        Duration timeout = transactionTimeout.value();
        String named = transactionTimeout.origin();
        if (lease.compareTo(timeout) >= 0) {
            problems.add(
                    "The lease of "
                            + where
                            + " ("
                            + DurationFormat.format(lease)
                            + ") must be shorter than the transaction timeout ("
                            + named
                            + "): a claim that outlives its delivery's transaction makes every"
                            + " redelivery after a crash wait and roll back until the broker gives"
                            + " the message up unrun. Shorten the lease (the heartbeat renews it"
                            + " while the bean runs), or set "
                            + ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT
                            + " to the transaction timeout the bean really runs under.");
        }
        if (wait.compareTo(timeout) >= 0) {
            problems.add(
                    "The wait timeout of "
                            + where
                            + " ("
                            + DurationFormat.format(wait)
                            + ") must be shorter than the transaction timeout ("
                            + named
                            + "): a duplicate waits inside its own transaction, which the"
                            + " transaction manager would roll back mid-wait.");
        }
        return problems;
    }
}
