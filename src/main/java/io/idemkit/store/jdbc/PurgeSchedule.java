package io.idemkit.store.jdbc;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.IdempotencyStore;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The purge of expired rows that the library runs on its own, at a fixed delay, when {@code
 * idemkit.jdbc.purge-interval} asks for it (C12: a relational database has no TTL index). Opt-in:
 * without it, nothing deletes expired rows unless the application schedules {@link
 * IdempotencyStore#purgeExpired()}.
 *
 * <p>It runs on an executor it is given (the runtime's {@code ManagedScheduledExecutorService},
 * which it never shuts down) or on one daemon thread of its own. {@link #close()} stops it, and
 * shuts its own thread down, so that an application that stops or is redeployed leaves no thread
 * behind. A run that fails (the database is down) logs one WARNING that names the exception's class
 * (the driver's message, which may name hosts or users, only at DEBUG) and the next run tries
 * again. Several instances purging at once is safe: each batch is one statement that never deletes
 * a live row, and on PostgreSQL skips the rows another transaction holds; elsewhere a batch waits
 * for them {@link LockWait#BOUND} at most, and a run that waited longer (contention, most often
 * another instance's purge) logs at INFO only.
 *
 * <p>Thread-safe.
 */
public final class PurgeSchedule implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PurgeSchedule.class.getName());

    /** The name of the library's own thread. */
    static final String THREAD_NAME = "idemkit-jdbc-purge";

    private final IdempotencyStore store;
    private final Duration interval;
    private final ScheduledExecutorService executor;
    private final boolean ownExecutor;
    private final ScheduledFuture<?> runs;

    private PurgeSchedule(
            IdempotencyStore store,
            Duration interval,
            ScheduledExecutorService executor,
            boolean ownExecutor) {
        this.store = Objects.requireNonNull(store, "store");
        this.interval = requirePositive(interval);
        this.executor = Objects.requireNonNull(executor, "executor");
        this.ownExecutor = ownExecutor;
        long millis = interval.toMillis();
        this.runs =
                executor.scheduleWithFixedDelay(
                        this::runOnce, millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Purges every {@code interval} on {@code executor}, the first time one interval from now.
     *
     * @param store the store to purge
     * @param interval the delay between the end of one run and the start of the next; positive
     * @param executor an executor the caller owns (a managed one); {@link #close()} cancels the
     *     runs but never shuts it down
     * @return the running schedule
     */
    public static PurgeSchedule on(
            ScheduledExecutorService executor, IdempotencyStore store, Duration interval) {
        return new PurgeSchedule(store, interval, executor, false);
    }

    /**
     * Purges every {@code interval} on one daemon thread of its own, the first time one interval
     * from now.
     *
     * @param store the store to purge
     * @param interval the delay between the end of one run and the start of the next; positive
     * @return the running schedule; {@link #close()} stops its thread
     */
    public static PurgeSchedule onOwnThread(IdempotencyStore store, Duration interval) {
        requirePositive(interval);
        ScheduledExecutorService own =
                Executors.newSingleThreadScheduledExecutor(
                        task -> {
                            Thread t = new Thread(task, THREAD_NAME);
                            t.setDaemon(true);
                            return t;
                        });
        return new PurgeSchedule(store, interval, own, true);
    }

    /**
     * @return the delay between two runs
     */
    public Duration interval() {
        return interval;
    }

    private void runOnce() {
        try {
            long purged = store.purgeExpired();
            LOG.log(Level.DEBUG, () -> "idemkit purged " + purged + " expired JDBC store rows");
        } catch (IdempotencyStorageException e) {
            // Caught, or the executor would never run the task again.
            if (e.kind() == IdempotencyStorageException.Kind.CONTENDED) {
                // Another transaction held rows of a batch past the lock bound: most often another
                // instance's purge of the same rows. Nothing to act on; the next run goes on.
                LOG.log(
                        Level.INFO,
                        "idemkit's scheduled purge of the JDBC store met rows another transaction"
                                + " held (another instance purging?); the next run, in "
                                + interval
                                + ", goes on");
            } else {
                warn(e);
            }
        } catch (RuntimeException e) {
            warn(e);
        }
    }

    private void warn(RuntimeException e) {
        String kind = e instanceof IdempotencyStorageException storage ? " " + storage.kind() : "";
        LOG.log(
                Level.WARNING,
                "idemkit's scheduled purge of the JDBC store failed ("
                        + e.getClass().getName()
                        + kind
                        + "); expired rows stay until the next run, in "
                        + interval
                        + ". Is the database reachable, and its table there?");
        LOG.log(Level.DEBUG, "idemkit's scheduled purge failed", e);
    }

    /**
     * Stops the runs: no other starts, and a run in progress finishes (it is not interrupted: an
     * interrupt can close the file channel of an H2 database on disk). Shuts the schedule's own
     * thread down once that run ended; leaves a given executor running. Idempotent.
     */
    @Override
    public void close() {
        runs.cancel(false);
        if (ownExecutor) {
            executor.shutdown();
        }
    }

    private static Duration requirePositive(Duration interval) {
        Objects.requireNonNull(interval, "interval");
        if (interval.toMillis() <= 0) {
            throw new IllegalArgumentException(
                    "Invalid idemkit.jdbc.purge-interval=" + interval + ": must be positive");
        }
        return interval;
    }
}
