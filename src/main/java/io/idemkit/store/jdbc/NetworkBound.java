package io.idemkit.store.jdbc;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A bound on how long one store call waits for its database to answer, set on the store's pooled
 * connection for the call ({@link Connection#setNetworkTimeout}) and given back after it (C12).
 *
 * <p>A statement's query timeout and the lock bounds ({@link LockWait}) end waits the database
 * itself takes part in; none of them ends a read on a connection whose database stopped answering
 * (a network partition, a hung server, a half-open connection behind a dead route), which the
 * driver waits for as long as its socket timeout allows, by default forever. A request thread then
 * hangs in its claim, and a heartbeat worker in its renewal, for as long as the stall lasts. With
 * the bound, such a read fails after it, the driver closes that connection (its pool discards it),
 * and the call fails as a storage failure: the request gets its documented answer (C4.8) and the
 * next call takes another connection.
 *
 * <p>The bound is set for the one call and the connection's own bound given back after it, so that
 * nothing of it stays on a connection another user of the data source takes; it costs no round trip
 * (the PostgreSQL and MariaDB drivers set their socket's read timeout). A driver or a pool that
 * does not support it ({@link SQLFeatureNotSupportedException}, or a driver older than JDBC 4.1) is
 * said once, in one warning, and its calls run unbounded, as before. Any other failure to set it is
 * this connection's (one its driver closed after a read timed out, which a pool that does not know
 * it is dead hands out again): the call fails, and the bound stays on for the calls after it.
 *
 * <p>Thread-safe; one instance per store.
 */
final class NetworkBound {

    private static final System.Logger LOG = System.getLogger(NetworkBound.class.getName());

    /**
     * Runs the driver's timeout work in the calling thread: no thread of the library's own to leak
     * at undeploy (neither the PostgreSQL nor the MariaDB driver runs one).
     */
    static final Executor IN_THE_CALLER = Runnable::run;

    private final AtomicBoolean refused = new AtomicBoolean();

    /** One call's bound on its connection: closing it gives the connection's own bound back. */
    interface Held extends AutoCloseable {
        @Override
        void close();
    }

    private static final Held NONE = () -> {};

    /**
     * Bounds {@code c}'s network reads by {@code bound} until the returned {@link Held} closes.
     *
     * @param c a connection of the store's data source, open
     * @param bound the longest a read waits; zero for none (the connection keeps its own)
     * @return what gives the connection's own bound back; close it before {@code c}
     * @throws SQLException when {@code c} cannot take the bound for another reason than not
     *     supporting it, as a connection its driver closed (a pool that does not know yet hands it
     *     out again): the call fails as it would on its first statement, and the bound stays on for
     *     the next connection; it is never left unbounded
     */
    Held on(Connection c, Duration bound) throws SQLException {
        if (bound.isZero() || refused.get()) {
            return NONE;
        }
        int before;
        try {
            before = c.getNetworkTimeout();
            c.setNetworkTimeout(IN_THE_CALLER, millis(bound));
        } catch (SQLFeatureNotSupportedException
                | UnsupportedOperationException
                | AbstractMethodError e) {
            if (refused.compareAndSet(false, true)) {
                LOG.log(
                        Level.WARNING,
                        "idemkit's JDBC store cannot bound how long a store call waits for the"
                                + " database (idemkit.jdbc.network-timeout): this data source's"
                                + " connections refuse Connection.setNetworkTimeout ("
                                + e.getClass().getName()
                                + "), so a call on a connection whose database stopped answering"
                                + " waits for the driver's socket timeout. Set the driver's socket"
                                + " timeout on the data source (PostgreSQL and MariaDB:"
                                + " socketTimeout).");
                LOG.log(Level.DEBUG, "setNetworkTimeout refused", e);
            }
            return NONE;
        }
        return () -> giveBack(c, before);
    }

    private static void giveBack(Connection c, int before) {
        try {
            if (!c.isClosed()) {
                c.setNetworkTimeout(IN_THE_CALLER, before);
            }
        } catch (SQLException | RuntimeException e) {
            // The bound ended the call and the driver closed the connection: its pool discards it.
        }
    }

    /**
     * @param bound a positive duration
     * @return it in whole milliseconds, rounded up, at most {@link Integer#MAX_VALUE}
     */
    static int millis(Duration bound) {
        long millis = bound.toMillis() + (bound.toNanosPart() % 1_000_000 > 0 ? 1 : 0);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, millis));
    }
}
