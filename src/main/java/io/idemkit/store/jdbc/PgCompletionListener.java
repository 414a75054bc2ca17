package io.idemkit.store.jdbc;

import io.idemkit.store.CompletionPoll;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The receiving side of the wake-ups across store instances on PostgreSQL (C4.3, C12): one
 * connection of the store's data source that {@code LISTEN}s on the table's channel ({@link
 * CompletionNotices}), read by one daemon thread of this store instance, which ends the pause of
 * this instance's waiters on each notified key ({@link CompletionPoll#signal}).
 *
 * <p>The only class of the library that names the PostgreSQL driver's {@link PGConnection}: the
 * store creates it only when its database is PostgreSQL, so that applications on other databases
 * never load it. A data source whose connections do not unwrap to it, or a driver this class cannot
 * see, leaves the store polling, with one warning.
 *
 * <p>The connection is taken when the first waiter of the instance waits, not at start, and given
 * back (after {@code UNLISTEN *}) once no waiter has waited for the idle period ({@link
 * CompletionListener#IDLE_PERIOD}, a minute; the thread sees it pass at its next read, within
 * {@value #RECEIVE_MILLIS} ms): an instance whose duplicates never wait holds none. Once it
 * listens, every waiter is woken to read again, so that a completion committed before the {@code
 * LISTEN} is not waited for until the next poll. While the connection is down (a database restart),
 * waiters poll as without it, and the thread takes a new connection, pausing 100 ms, doubling to 5
 * s, between attempts; {@link #status()} says so. Thread-safe.
 */
final class PgCompletionListener implements CompletionListener, Runnable {

    private static final System.Logger LOG = System.getLogger(PgCompletionListener.class.getName());

    /** The longest one read of notifications blocks: bounds how long {@link #close} waits. */
    static final int RECEIVE_MILLIS = 500;

    /** Reads between two checks that the connection is alive (a silent network loss). */
    static final int CHECK_ROUNDS = 20;

    private static final long FIRST_BACKOFF_MILLIS = 100;
    private static final long MAX_BACKOFF_MILLIS = 5000;

    static final String LISTENING = "listening";
    static final String IDLE = "idle (listens while a duplicate waits)";
    static final String DOWN = "polling (listener down)";
    static final String UNAVAILABLE = "polling (connections do not unwrap to PGConnection)";
    static final String CLOSED = "polling (store closed)";

    private final DataSource dataSource;
    private final String channel;
    private final CompletionPoll completions;
    private final long idleNanos;
    private final Object lock = new Object();
    private int waiters; // guarded by lock
    // guarded by lock: when a waiter last arrived or left; with none left, the idle period's start
    private long lastWaited = System.nanoTime();
    private boolean closed; // guarded by lock
    private Thread thread; // guarded by lock
    private volatile String status = IDLE;

    private PgCompletionListener(
            DataSource dataSource, String channel, CompletionPoll completions, Duration idle) {
        this.dataSource = dataSource;
        this.channel = channel;
        this.completions = completions;
        this.idleNanos = idle.toNanos();
    }

    /**
     * @param dataSource the store's data source, on PostgreSQL
     * @param channel the table's channel
     * @param completions the waits of the store instance
     * @param idle how long no waiter must have waited before the connection is given back: {@link
     *     CompletionListener#IDLE_PERIOD} but in tests
     * @return a listener that has not connected yet
     */
    static CompletionListener on(
            DataSource dataSource, String channel, CompletionPoll completions, Duration idle) {
        return new PgCompletionListener(dataSource, channel, completions, idle);
    }

    @Override
    public void waiterArrives() {
        synchronized (lock) {
            waiters++;
            lastWaited = System.nanoTime();
            if (closed || status == UNAVAILABLE) {
                return;
            }
            if (thread == null) {
                thread = new Thread(this, "idemkit-listener-" + channel);
                thread.setDaemon(true);
                thread.start();
            } else {
                lock.notifyAll();
            }
        }
    }

    @Override
    public void waiterLeaves() {
        synchronized (lock) {
            waiters--;
            lastWaited = System.nanoTime();
        }
    }

    @Override
    public String status() {
        return status;
    }

    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            running = thread;
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(RECEIVE_MILLIS + 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        status = CLOSED;
    }

    @Override
    public void run() {
        Connection c = null;
        PGConnection listening = null;
        long backoff = FIRST_BACKOFF_MILLIS;
        boolean giveBackNow = false;
        int sinceCheck = 0;
        try {
            while (true) {
                synchronized (lock) {
                    if (closed) {
                        return;
                    }
                    if (waiters == 0
                            && (giveBackNow || System.nanoTime() - lastWaited >= idleNanos)) {
                        c = giveBack(c);
                        listening = null;
                        giveBackNow = false;
                        status = IDLE;
                        while (waiters == 0 && !closed) {
                            lock.wait();
                        }
                        continue;
                    }
                }
                try {
                    if (c == null) {
                        c = AutoCommit.on(dataSource.getConnection());
                        if (!c.isWrapperFor(PGConnection.class)) {
                            unavailable(null);
                            return;
                        }
                        listening = c.unwrap(PGConnection.class);
                        try (Statement s = c.createStatement()) {
                            s.execute("LISTEN " + channel);
                        }
                        backoff = FIRST_BACKOFF_MILLIS;
                        sinceCheck = 0;
                        // A change committed before the LISTEN sent nothing this connection saw.
                        completions.signalAll();
                        // Said once the waiters have been woken, so that one that starts waiting
                        // after "listening" is read is not woken by this catch-up.
                        status = LISTENING;
                    }
                    PGNotification[] received = listening.getNotifications(RECEIVE_MILLIS);
                    if (received != null) {
                        for (PGNotification n : received) {
                            if (channel.equals(n.getName()) && n.getParameter() != null) {
                                completions.signal(n.getParameter());
                            }
                        }
                    }
                    if (++sinceCheck >= CHECK_ROUNDS) {
                        sinceCheck = 0;
                        if (!c.isValid(2)) {
                            throw new SQLException(
                                    "the listening connection is not valid", "08003");
                        }
                    }
                } catch (SQLException e) {
                    if (status != DOWN) {
                        LOG.log(
                                Level.WARNING,
                                "idemkit's JDBC store lost its PostgreSQL listening connection"
                                        + " (SQLState "
                                        + e.getSQLState()
                                        + "): duplicates that wait poll until it is back, up to"
                                        + " 500 ms late; it reconnects by itself.");
                        LOG.log(Level.DEBUG, "listening connection failure", e);
                    }
                    status = DOWN;
                    c = giveBack(c);
                    listening = null;
                    synchronized (lock) {
                        if (waiters == 0) {
                            giveBackNow = true; // nothing waits: no retries until something does
                        } else if (!closed) {
                            lock.wait(backoff);
                        }
                    }
                    backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (LinkageError e) {
            unavailable(e);
        } finally {
            giveBack(c);
        }
    }

    private void unavailable(Throwable cause) {
        status = UNAVAILABLE;
        LOG.log(
                Level.WARNING,
                "idemkit's JDBC store cannot listen for completions on PostgreSQL: its data"
                        + " source's connections do not unwrap to org.postgresql.PGConnection"
                        + (cause == null ? "" : " (" + cause.getClass().getName() + ")")
                        + ". Duplicates that wait poll for the result, up to 500 ms late. A pool"
                        + " unwraps only for an application that sees the driver's own classes:"
                        + " on Open Liberty give the application the data source's library"
                        + " (<classloader commonLibraryRef=\"...\"/>, or name the library"
                        + " \"global\"); on WildFly make the deployment depend on the driver's"
                        + " module. Or set idemkit.jdbc.notifications=false to silence this.");
    }

    /**
     * Stops listening on {@code c} and returns it to its pool; {@code null} always. The {@code
     * UNLISTEN} runs through the pool's own wrapper even when the connection is known to be broken:
     * the failure that told this thread so came through the driver's connection, which the pool
     * does not see, and the pool discards a connection only when one of its own calls fails.
     */
    private static Connection giveBack(Connection c) {
        if (c == null) {
            return null;
        }
        try {
            try (Statement s = c.createStatement()) {
                s.execute("UNLISTEN *");
            }
            // What arrived meanwhile stays off the pooled session.
            c.unwrap(PGConnection.class).getNotifications();
        } catch (SQLException e) {
            // a broken connection: its failure went through the pool, which discards it
        } finally {
            try {
                c.close();
            } catch (SQLException e) {
                // already gone
            }
        }
        return null;
    }
}
