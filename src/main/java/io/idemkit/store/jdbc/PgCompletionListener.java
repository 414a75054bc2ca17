package io.idemkit.store.jdbc;

import io.idemkit.store.CompletionPoll;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The receiving side of the wake-ups across store instances on PostgreSQL (C4.3, C12): one
 * connection of the store's data source that {@code LISTEN}s on the table's channel ({@link
 * CompletionNotices}), read by one daemon thread of this store instance, which ends the pause of
 * this instance's waiters on each notified key ({@link CompletionPoll#signal}).
 *
 * <p>It reaches the driver's notifications through {@link PgDriverAccess}, by reflection through
 * the driver's own class loader, so that it listens also where the application cannot see the
 * driver's classes (a server-defined data source). Where the data source's connections unwrap to no
 * {@code org.postgresql.PGConnection} at all, the store says so in one warning at start and its
 * waiters poll.
 *
 * <p>The connection is taken when the first waiter of the instance waits, not at start, and given
 * back (after {@code UNLISTEN *}) once no waiter has waited for the idle period ({@link
 * CompletionListener#IDLE_PERIOD}, a minute; the thread sees it pass at its next read, within
 * {@value #RECEIVE_MILLIS} ms): an instance whose duplicates never wait holds none. Once it
 * listens, every waiter is woken to read again, so that a completion committed before the {@code
 * LISTEN} is not waited for until the next poll. While the connection is down (a database restart,
 * a half-open connection, any failure of the thread's own), waiters poll as without it, and the
 * thread takes a new connection, pausing 100 ms, doubling to 5 s, between attempts; {@link
 * #status()} says so.
 *
 * <p>No network call runs under the lock that waiters and {@link #close()} take, and each of the
 * listening connection's network calls is bounded ({@link Connection#setNetworkTimeout}, {@value
 * #NETWORK_MILLIS} ms, where the data source supports it): a half-open connection delays neither a
 * waiter nor the undeploy. Thread-safe.
 */
final class PgCompletionListener implements CompletionListener, Runnable {

    private static final System.Logger LOG = System.getLogger(PgCompletionListener.class.getName());

    /** The longest one read of notifications blocks. */
    static final int RECEIVE_MILLIS = 500;

    /**
     * The bound of every other network call of the listening connection ({@code LISTEN}, {@code
     * UNLISTEN}), and so, with {@link #RECEIVE_MILLIS}, of how long {@link #close} waits.
     */
    static final int NETWORK_MILLIS = 3000;

    private static final Duration NETWORK_BOUND = Duration.ofMillis(NETWORK_MILLIS);

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
    private final NetworkBound network;
    private final String channel;
    private final CompletionPoll completions;
    private final long idleNanos;
    private final Object lock = new Object();
    private int waiters; // guarded by lock
    // guarded by lock: waiters that ever arrived, so that one that came and went is not missed
    private long arrivals;
    // guarded by lock: when a waiter last arrived or left; with none left, the idle period's start
    private long lastWaited = System.nanoTime();
    private volatile boolean closed; // written under lock
    private volatile Thread thread; // written under lock
    private volatile String status;
    private final PgDriverAccess driver; // null: unavailable

    private PgCompletionListener(
            DataSource dataSource,
            NetworkBound network,
            String channel,
            CompletionPoll completions,
            Duration idle,
            PgDriverAccess driver) {
        this.dataSource = dataSource;
        this.network = network;
        this.channel = channel;
        this.completions = completions;
        this.idleNanos = idle.toNanos();
        this.driver = driver;
        this.status = driver == null ? UNAVAILABLE : IDLE;
    }

    /**
     * Finds, on {@code probe}, how to reach the driver's notifications; where it cannot, logs the
     * one warning that says what to change, and the listener stays {@link #UNAVAILABLE}.
     *
     * @param dataSource the store's data source, on PostgreSQL
     * @param network the store's bound of its network calls, which the listening connection's take
     *     with {@value #NETWORK_MILLIS} ms
     * @param channel the table's channel
     * @param completions the waits of the store instance
     * @param idle how long no waiter must have waited before the connection is given back: {@link
     *     CompletionListener#IDLE_PERIOD} but in tests
     * @param probe a connection of {@code dataSource}, left open
     * @return a listener that has not connected yet
     * @throws SQLException when {@code probe} fails
     */
    static CompletionListener on(
            DataSource dataSource,
            NetworkBound network,
            String channel,
            CompletionPoll completions,
            Duration idle,
            Connection probe)
            throws SQLException {
        PgDriverAccess driver;
        try {
            driver = PgDriverAccess.of(probe);
        } catch (PgDriverAccess.Unavailable e) {
            unavailable(e.getMessage());
            driver = null;
        }
        return new PgCompletionListener(dataSource, network, channel, completions, idle, driver);
    }

    @Override
    public void waiterArrives() {
        synchronized (lock) {
            waiters++;
            arrivals++;
            lastWaited = System.nanoTime();
            if (closed || status == UNAVAILABLE) {
                return;
            }
            Thread running = thread;
            if (running == null || !running.isAlive()) {
                // The first waiter, or a thread that ended by an error it could not survive.
                running = new Thread(this, "idemkit-listener-" + channel);
                running.setDaemon(true);
                thread = running;
                running.start();
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
        if (closed) {
            return CLOSED;
        }
        String said = status;
        Thread running = thread;
        if (said == LISTENING && (running == null || !running.isAlive())) {
            return DOWN; // never "listening" when no thread listens
        }
        return said;
    }

    @Override
    public void close() {
        Thread running;
        synchronized (lock) {
            closed = true;
            lock.notifyAll();
            running = thread;
        }
        status = CLOSED;
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(RECEIVE_MILLIS + NETWORK_MILLIS + 500L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        try {
            listen();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) {
            // What even the loop's own recovery could not survive: the next waiter starts another.
            status = DOWN;
            failed(e);
        } finally {
            synchronized (lock) {
                if (closed) {
                    status = CLOSED;
                }
            }
        }
    }

    /** The thread's loop, until the store closes. */
    private void listen() throws InterruptedException {
        Connection c = null;
        Object listening = null; // the driver's PGConnection under c
        NetworkBound.Held bound = null; // c's network bound, given back with c
        long backoff = FIRST_BACKOFF_MILLIS;
        boolean giveBackNow = false;
        int sinceCheck = 0;
        try {
            while (true) {
                boolean idle;
                long arrived;
                synchronized (lock) {
                    if (closed) {
                        return;
                    }
                    arrived = arrivals;
                    idle =
                            waiters == 0
                                    && (giveBackNow || System.nanoTime() - lastWaited >= idleNanos);
                }
                if (idle) {
                    status = IDLE;
                    c = giveBack(c, listening, bound); // outside the lock: network calls
                    listening = null;
                    bound = null;
                    giveBackNow = false;
                    synchronized (lock) {
                        // Until a waiter arrives, also one that arrived during the UNLISTEN, or
                        // came and went before this thread woke.
                        while (waiters == 0 && arrivals == arrived && !closed) {
                            lock.wait();
                        }
                    }
                    continue;
                }
                try {
                    if (c == null) {
                        c = AutoCommit.on(dataSource.getConnection());
                        bound = network.on(c, NETWORK_BOUND);
                        listening = driver.unwrap(c);
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
                    driver.receive(
                            listening,
                            RECEIVE_MILLIS,
                            (name, key) -> {
                                if (channel.equals(name) && key != null) {
                                    completions.signal(key);
                                }
                            });
                    if (++sinceCheck >= CHECK_ROUNDS) {
                        sinceCheck = 0;
                        if (!c.isValid(2)) {
                            throw new SQLException(
                                    "the listening connection is not valid", "08003");
                        }
                    }
                } catch (Throwable e) { // LinkageError too: the thread must survive it (C4.11)
                    if (status != DOWN) {
                        failed(e);
                    }
                    status = DOWN;
                    c = giveBack(c, listening, bound);
                    listening = null;
                    bound = null;
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
        } finally {
            giveBack(c, listening, bound);
        }
    }

    /** One line, no stack trace, and never a driver's message (C4.11). */
    private static void failed(Throwable e) {
        String why =
                e instanceof SQLException sql
                        ? " lost its PostgreSQL listening connection (SQLState "
                                + sql.getSQLState()
                                + ")"
                        : "'s PostgreSQL listener failed (" + e.getClass().getName() + ")";
        LOG.log(
                Level.WARNING,
                "idemkit's JDBC store"
                        + why
                        + ": duplicates that wait poll until it listens again, up to the poll's longest pause"
                        + " (idemkit.jdbc.poll-longest-pause) late;"
                        + " it reconnects by itself.");
        LOG.log(Level.DEBUG, "listening connection failure", e);
    }

    private static void unavailable(String reason) {
        LOG.log(
                Level.WARNING,
                "idemkit's JDBC store cannot listen for completions on PostgreSQL: its data"
                        + " source's connections unwrap to no org.postgresql.PGConnection ("
                        + reason
                        + "), so duplicates that wait poll for the result, up to the poll's longest pause"
                        + " (idemkit.jdbc.poll-longest-pause) late. Give"
                        + " the store a data source whose Connection.unwrap reaches the driver's"
                        + " own connection (those of Open Liberty, WildFly, Payara and HikariCP"
                        + " do), or set idemkit.jdbc.notifications=false to silence this.");
    }

    /**
     * Stops listening on {@code c}, restores its network bound and returns it to its pool; {@code
     * null} always. The {@code UNLISTEN} runs through the pool's own wrapper even when the
     * connection is known to be broken: the failure that told this thread so came through the
     * driver's connection, which the pool does not see, and the pool discards a connection only
     * when one of its own calls fails. Each of these calls is bounded ({@code bound}, taken with
     * {@code c}; null if {@code c} failed before it took it), and none runs under the lock.
     */
    private Connection giveBack(Connection c, Object listening, NetworkBound.Held bound) {
        if (c == null) {
            return null;
        }
        try {
            try (Statement s = c.createStatement()) {
                s.execute("UNLISTEN *");
            }
            if (listening != null) {
                // What arrived meanwhile stays off the pooled session.
                driver.drain(listening);
            }
        } catch (SQLException | RuntimeException | LinkageError e) {
            // a broken connection: its failure went through the pool, which discards it
        } finally {
            if (bound != null) {
                bound.close();
            }
            try {
                c.close();
            } catch (SQLException | RuntimeException e) {
                // already gone
            }
        }
        return null;
    }
}
