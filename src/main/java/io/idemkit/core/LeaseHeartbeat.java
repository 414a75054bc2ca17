package io.idemkit.core;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Keeps long operations' leases alive (contract C4.7): renews on a fixed beat well inside the
 * lease, and when a renewal fails, tells the operation before the lease runs out.
 *
 * <p>The beat runs on a borrowed scheduler (a container's managed one), or else on one daemon
 * thread of its own, created on first use and stopped by {@link #close()}. Thread-safe.
 */
public final class LeaseHeartbeat implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaseHeartbeat.class.getName());

    /** The longest a beat's close waits for its running renewal ({@link Beat#close()}). */
    static final Duration MAX_CLOSE_WAIT = Duration.ofSeconds(5);

    private final boolean interruptOnLoss;
    private final boolean borrowed;
    private ScheduledExecutorService executor;
    private boolean closed;

    /**
     * A heartbeat on a daemon thread of its own.
     *
     * @param interruptOnLoss whether a lost lease also interrupts the operation's thread, on top of
     *     setting the flag the operation can read
     */
    public LeaseHeartbeat(boolean interruptOnLoss) {
        this.interruptOnLoss = interruptOnLoss;
        this.borrowed = false;
    }

    /**
     * A heartbeat on a scheduler someone else owns: {@link #close()} cancels its beats but never
     * shuts the scheduler down.
     *
     * @param interruptOnLoss whether a lost lease also interrupts the operation's thread
     * @param scheduler runs the beats; it must support {@code scheduleWithFixedDelay}
     */
    public LeaseHeartbeat(boolean interruptOnLoss, ScheduledExecutorService scheduler) {
        this.interruptOnLoss = interruptOnLoss;
        this.borrowed = true;
        this.executor = Objects.requireNonNull(scheduler, "scheduler");
    }

    /**
     * @return whether the beats run on a borrowed scheduler rather than on a thread of their own
     */
    public boolean borrowsScheduler() {
        return borrowed;
    }

    /**
     * Starts beating for the calling thread's operation.
     *
     * @param renewal one renewal; {@code false} or an exception means the lease is lost
     * @param interval the beat, positive and well inside the lease (a third of it is usual)
     * @param onLoss called once, on the beat thread, when a renewal fails
     * @return the beat, to be closed by the operation's thread when the operation ends
     */
    public Beat start(BooleanSupplier renewal, Duration interval, Runnable onLoss) {
        return start(renewal, interval, onLoss, true);
    }

    /**
     * Starts beating for the calling thread's operation.
     *
     * @param renewal one renewal; {@code false} or an exception means the lease is lost
     * @param interval the beat, positive and well inside the lease (a third of it is usual)
     * @param onLoss called once, on the beat thread, when a renewal fails
     * @param mayInterrupt whether a loss may interrupt the calling thread (if this heartbeat is so
     *     configured); {@code false} for an operation that continues on other threads
     * @return the beat, to be closed when the operation ends
     */
    public Beat start(
            BooleanSupplier renewal, Duration interval, Runnable onLoss, boolean mayInterrupt) {
        Objects.requireNonNull(renewal, "renewal");
        Objects.requireNonNull(onLoss, "onLoss");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be positive");
        }
        Beat beat =
                new Beat(
                        Thread.currentThread(),
                        renewal,
                        onLoss,
                        mayInterrupt && interruptOnLoss,
                        closeWait(interval));
        beat.future =
                executor()
                        .scheduleWithFixedDelay(
                                beat::beat,
                                interval.toNanos(),
                                interval.toNanos(),
                                TimeUnit.NANOSECONDS);
        return beat;
    }

    /**
     * How long closing a beat waits for a renewal that is running: one beat, at most {@link
     * #MAX_CLOSE_WAIT}. A renewal that takes longer is stuck, and the operation goes on without it.
     */
    static Duration closeWait(Duration interval) {
        return interval.compareTo(MAX_CLOSE_WAIT) < 0 ? interval : MAX_CLOSE_WAIT;
    }

    private synchronized ScheduledExecutorService executor() {
        if (closed) {
            throw new IllegalStateException("the lease heartbeat is closed");
        }
        if (executor == null) {
            ScheduledThreadPoolExecutor pool =
                    new ScheduledThreadPoolExecutor(
                            1,
                            runnable -> {
                                Thread thread = new Thread(runnable, "idemkit-lease-heartbeat");
                                thread.setDaemon(true);
                                return thread;
                            });
            pool.setRemoveOnCancelPolicy(true);
            executor = pool;
        }
        return executor;
    }

    /**
     * Stops the beat thread; beats still running are cancelled. A borrowed scheduler is left
     * running, but no new beat starts.
     */
    @Override
    public synchronized void close() {
        closed = true;
        if (executor != null && !borrowed) {
            executor.shutdownNow();
        }
    }

    /**
     * One operation's heartbeat. Closing it stops the beat and waits, bounded, for a renewal that
     * is running; it never interrupts afterwards. A beat {@linkplain #handOver() handed over} goes
     * on after the operation's thread has returned, until whoever writes the operation's completion
     * closes it, on any thread; it never interrupts either.
     */
    public final class Beat implements AutoCloseable {

        private final Thread owner;
        private final BooleanSupplier renewal;
        private final Runnable onLoss;
        private final long closeWaitNanos;
        private volatile ScheduledFuture<?> future;
        private boolean running = true;

        /** Whether a loss interrupts {@link #owner}; off once the beat is handed over. */
        private boolean interruptOwner;

        private boolean interrupted;

        /** The thread running a renewal of this beat, or {@code null} between renewals. */
        private Thread renewing;

        private Beat(
                Thread owner,
                BooleanSupplier renewal,
                Runnable onLoss,
                boolean interruptOwner,
                Duration closeWait) {
            this.owner = owner;
            this.renewal = renewal;
            this.onLoss = onLoss;
            this.interruptOwner = interruptOwner;
            this.closeWaitNanos = closeWait.toNanos();
        }

        private void beat() {
            synchronized (this) {
                if (!running) {
                    return; // closed after this run was taken off the queue
                }
                renewing = Thread.currentThread();
            }
            try {
                renew();
            } finally {
                synchronized (this) {
                    renewing = null;
                    notifyAll();
                }
            }
        }

        private void renew() {
            boolean renewed;
            try {
                renewed = renewal.getAsBoolean();
            } catch (RuntimeException e) {
                // Unconfirmed is treated as lost: the operation must hear of it before the
                // lease can run out, and the next beat might come too late.
                LOG.log(
                        Level.WARNING,
                        "idemkit could not renew a lease ("
                                + e.getMessage()
                                + "); the operation is told its lease is lost, and its result may"
                                + " be discarded. Check that the store is reachable.");
                renewed = false;
            }
            if (!renewed) {
                lost();
            }
        }

        private void lost() {
            synchronized (this) {
                if (!running) {
                    return;
                }
                running = false;
                // The flag first: a thread woken by the interrupt must already see it.
                onLoss.run();
                if (interruptOwner) {
                    interrupted = true;
                    owner.interrupt();
                }
            }
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }

        /**
         * Lets the beat go on after the operation has returned, until the operation's completion is
         * written later, on this thread or another (after its transaction commits, C11.2): from now
         * on a lost lease only sets the flag the operation's owner reads, and never interrupts this
         * thread, which has moved on (to the commit, say); an interrupt this beat raised already is
         * cleared. {@link #close()} then stops it, from any thread. Call it on the thread that
         * started the beat.
         */
        public void handOver() {
            synchronized (this) {
                interruptOwner = false;
                if (interrupted && Thread.currentThread() == owner) {
                    interrupted = false;
                    Thread.interrupted();
                }
            }
        }

        /**
         * Stops the beat, and waits for a renewal that is running to end, at most one beat (never
         * more than {@link #MAX_CLOSE_WAIT}). What the operation does next (a completion inside its
         * transaction, C13) may lock the record's row until a commit: a renewal still running would
         * wait behind that lock and hold the heartbeat's thread, so that no other lease on the node
         * is renewed meanwhile (C4.7). Call it on the operation's thread, or on any thread once the
         * beat is {@linkplain #handOver() handed over}; an interrupt this beat raised is cleared on
         * the operation's thread, so that it does not leak into the thread's next task.
         */
        @Override
        public void close() {
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            synchronized (this) {
                running = false;
                awaitRenewal();
                if (interrupted && Thread.currentThread() == owner) {
                    interrupted = false;
                    Thread.interrupted();
                }
            }
        }

        /** Waits, holding this beat's monitor, until no renewal runs or the bound has passed. */
        private void awaitRenewal() {
            long deadline = System.nanoTime() + closeWaitNanos;
            boolean interruptedHere = false;
            while (renewing != null && renewing != Thread.currentThread()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    LOG.log(
                            Level.WARNING,
                            "idemkit stopped waiting for a lease renewal still running after "
                                    + Duration.ofNanos(closeWaitNanos).toMillis()
                                    + " ms; the operation goes on. Check the store's latency.");
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interruptedHere = true;
                }
            }
            if (interruptedHere) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
