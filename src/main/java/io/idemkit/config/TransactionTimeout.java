package io.idemkit.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The JTA transaction timeout that bounds a message delivery, against which the lease rule of
 * message-driven beans is checked (contract C11.4), and where the value came from, which the rule's
 * message names: {@code idemkit.message.transaction-timeout} when it is set, else what the
 * runtime's transaction manager says, else an assumption.
 *
 * @param value the timeout; {@link Duration#ZERO} when transactions have none
 * @param origin where it came from, as the rule's message names it
 */
public record TransactionTimeout(Duration value, String origin) {

    /**
     * What the rule assumes when nothing is set and the runtime's value cannot be read: Open
     * Liberty's default, the shortest of the runtimes the library knows (WildFly's is 300 s, and
     * Payara's none), so that the assumption refuses rather than accepts when in doubt.
     */
    public static final Duration ASSUMED = Duration.ofSeconds(120);

    /** Validates the components. */
    public TransactionTimeout {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(origin, "origin");
        if (value.isNegative()) {
            throw new IllegalArgumentException("a transaction timeout is not negative: " + value);
        }
    }

    /**
     * @param value {@code idemkit.message.transaction-timeout}
     * @return the configured timeout
     */
    public static TransactionTimeout configured(Duration value) {
        return new TransactionTimeout(
                value, ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT + "=" + DurationFormat.format(value));
    }

    /**
     * @param value what the runtime's transaction manager gives a new transaction; zero for none
     * @param runtime the runtime, as {@code Open Liberty}
     * @return the runtime's timeout
     */
    public static TransactionTimeout readFrom(Duration value, String runtime) {
        return new TransactionTimeout(
                value,
                runtime
                        + "'s transaction timeout, "
                        + (value.isZero() ? "none" : DurationFormat.format(value))
                        + ", read from the server");
    }

    /**
     * @return {@link #ASSUMED}, when nothing says otherwise
     */
    public static TransactionTimeout assumed() {
        return new TransactionTimeout(
                ASSUMED,
                DurationFormat.format(ASSUMED)
                        + " assumed: "
                        + ConfigKeys.MESSAGE_TRANSACTION_TIMEOUT
                        + " is unset, and the server's could not be read");
    }

    /**
     * @return whether transactions time out at all; without a timeout the rule has nothing to hold
     *     leases to
     */
    public boolean bounds() {
        return !value.isZero();
    }
}
