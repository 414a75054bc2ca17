package io.idemkit.core;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Keeps long operations' leases alive (contract C4.7): renews on a fixed beat well inside the
 * lease, and when a renewal fails or does not answer in time, tells the operation before the lease
 * runs out.
 *
 * <p>Three kinds of work, kept apart so that one stuck store call cannot hold up any other lease:
 *
 * <ul>
 *   <li>the <b>scheduler</b> only dispatches each beat's renewal and checks its deadline; it never
 *       calls the store nor anything of the application;
 *   <li>each <b>renewal</b> runs on a worker, bounded by a {@linkplain #renewalDeadline deadline}
 *       shorter than the beat: a renewal still unanswered then (a pool that has no connection to
 *       give, a statement on a half-open socket or behind a lock) counts as failed, and its
 *       operation is told at once, more than a beat before its lease could lapse, not when TCP
 *       gives up; the worker it holds is left to it, and the other beats go on, on the other
 *       workers;
 *   <li>the <b>loss</b> ({@code onLoss}, which emits {@code lease_lost} to the observers, then the
 *       interrupt) runs on a notifier, outside the beat's lock and off the scheduler.
 * </ul>
 *
 * <p>A beat has at most one renewal in flight: a renewal past its deadline is not retried beside
 * itself (a second one would queue behind the same stall, pool or row lock), so no other renewal
 * could confirm that lease before it lapses, and the operation is told now.
 *
 * <p>On a borrowed scheduler (a container's managed one) all three run there. Otherwise the
 * heartbeat has daemon threads of its own ({@link HeartbeatThreads}), created on first use and
 * stopped by {@link #close()}. Thread-safe.
 */
public final class LeaseHeartbeat implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LeaseHeartbeat.class.getName());

    /** The longest a beat's close waits for its running renewal ({@link Beat#close()}). */
    static final Duration MAX_CLOSE_WAIT = Duration.ofSeconds(5);

    /**
     * How many renewals run at once on the heartbeat's own threads; as many stuck store calls
     * (sockets half-open, without a socket timeout) make the others wait, and miss their deadlines.
     */
    public static final int RENEWAL_THREADS = 4;

    private final boolean interruptOnLoss;
    private final boolean borrowed;
    private final Set<Beat> beats = ConcurrentHashMap.newKeySet();
    private HeartbeatThreads threads;
    private boolean closed;

    /**
     * A heartbeat on daemon threads of its own.
     *
     * @param interruptOnLoss whether a lost lease also interrupts the operation's thread, on top of
     *     setting the flag the operation can read
     */
    public LeaseHeartbeat(boolean interruptOnLoss) {
        this.interruptOnLoss = interruptOnLoss;
        this.borrowed = false;
    }

    /**
     * A heartbeat on a scheduler someone else owns, which also runs its renewals and losses: {@link
     * #close()} cancels its beats but never shuts the scheduler down.
     *
     * @param interruptOnLoss whether a lost lease also interrupts the operation's thread
     * @param scheduler runs the beats; it must support {@code scheduleWithFixedDelay}, {@code
     *     schedule} and {@code execute}
     */
    public LeaseHeartbeat(boolean interruptOnLoss, ScheduledExecutorService scheduler) {
        this.interruptOnLoss = interruptOnLoss;
        this.borrowed = true;
        this.threads = HeartbeatThreads.borrowed(Objects.requireNonNull(scheduler, "scheduler"));
    }

    /**
     * @return whether the beats run on a borrowed scheduler rather than on threads of their own
     */
    public boolean borrowsScheduler() {
        return borrowed;
    }

    /**
     * @param lease a lease
     * @return the beat that renews it: a third of it, so that a renewal that fails still leaves
     *     more than a beat to tell the operation
     */
    public static Duration interval(Duration lease) {
        return lease.dividedBy(3);
    }

    /**
     * How long a renewal may take, from its dispatch to its answer, its wait for a connection
     * included: two thirds of the beat. A renewal of a lease ({@link #interval}) that misses it is
     * reported when at least four thirds of a beat (four ninths of the lease) are left before the
     * lease, last renewed a beat earlier, could lapse.
     *
     * @param interval the beat
     * @return the renewal's deadline
     */
    public static Duration renewalDeadline(Duration interval) {
        return interval.multipliedBy(2).dividedBy(3);
    }

    /**
     * {@link #start(BooleanSupplier, Duration, Runnable, boolean)} for an operation that may be
     * interrupted: the beat is to be closed by the operation's thread when the operation ends.
     */
    public Beat start(BooleanSupplier renewal, Duration interval, Runnable onLoss) {
        return start(renewal, interval, onLoss, true);
    }

    /**
     * Starts beating for the calling thread's operation.
     *
     * @param renewal one renewal; {@code false}, an exception or no answer by its {@linkplain
     *     #renewalDeadline deadline} means the lease is lost
     * @param interval the beat, positive and well inside the lease (a third of it is usual)
     * @param onLoss called once, on a notifier thread, when a renewal fails; if the beat
     *     interrupts, the interrupt follows it
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
        HeartbeatThreads t = threads();
        Beat beat =
                new Beat(
                        t,
                        Thread.currentThread(),
                        renewal,
                        onLoss,
                        mayInterrupt && interruptOnLoss,
                        interval);
        beats.add(beat);
        beat.future =
                t.scheduler.scheduleWithFixedDelay(
                        beat::dispatch,
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

    private synchronized HeartbeatThreads threads() {
        if (closed) {
            throw new IllegalStateException("the lease heartbeat is closed");
        }
        if (threads == null) {
            threads = HeartbeatThreads.own();
        }
        return threads;
    }

    /**
     * Stops every beat, and the heartbeat's own threads (a renewal stuck in a store call is
     * interrupted, and left to end). A borrowed scheduler is left running, but no new beat starts.
     */
    @Override
    public void close() {
        HeartbeatThreads t;
        synchronized (this) {
            closed = true;
            t = threads;
        }
        beats.forEach(Beat::stop);
        if (t != null) {
            t.shutdown();
        }
    }

    /** One dispatched renewal of a beat. */
    private static final class Attempt {}

    /**
     * One operation's heartbeat. Closing it stops the beat and waits, bounded, for a renewal or a
     * loss notice that is running; it never interrupts afterwards. A beat {@linkplain #handOver()
     * handed over} goes on after the operation's thread has returned, until whoever writes the
     * operation's completion closes it, on any thread; it never interrupts either.
     */
    public final class Beat implements AutoCloseable {

        private final HeartbeatThreads threads;
        private final Thread owner;
        private final BooleanSupplier renewal;
        private final Runnable onLoss;
        private final long deadlineNanos;
        private final long closeWaitNanos;
        private volatile ScheduledFuture<?> future;
        private boolean running = true;

        /** Whether a loss interrupts {@link #owner}; off once the beat is handed over or closed. */
        private boolean interruptOwner;

        private boolean interrupted;

        /** The renewal dispatched and not answered yet, or {@code null}. */
        private Attempt pending;

        /** The thread running a renewal of this beat, or {@code null} between renewals. */
        private Thread renewing;

        /** Whether the loss is being told ({@code onLoss}, the interrupt), or about to be. */
        private boolean telling;

        /** The thread telling the loss, while it does. */
        private Thread teller;

        private Beat(
                HeartbeatThreads threads,
                Thread owner,
                BooleanSupplier renewal,
                Runnable onLoss,
                boolean interruptOwner,
                Duration interval) {
            this.threads = threads;
            this.owner = owner;
            this.renewal = renewal;
            this.onLoss = onLoss;
            this.interruptOwner = interruptOwner;
            this.deadlineNanos = renewalDeadline(interval).toNanos();
            this.closeWaitNanos = closeWait(interval).toNanos();
        }

        /** On the scheduler: hands the renewal to a worker, and sets its deadline. */
        private void dispatch() {
            Attempt attempt = new Attempt();
            synchronized (this) {
                if (!running || pending != null) {
                    return; // closed, or the last renewal's deadline is still to come
                }
                pending = attempt;
            }
            try {
                threads.workers.execute(() -> renew(attempt));
            } catch (RejectedExecutionException e) {
                return; // the heartbeat is closing
            }
            synchronized (this) {
                if (pending != attempt) {
                    return; // answered already
                }
            }
            try {
                threads.scheduler.schedule(
                        () -> checkDeadline(attempt), deadlineNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the heartbeat is closing
            }
        }

        /** On a worker. */
        private void renew(Attempt attempt) {
            synchronized (this) {
                if (!running || pending != attempt) {
                    return; // closed, or queued past its deadline: already told
                }
                renewing = Thread.currentThread();
            }
            boolean renewed;
            RuntimeException failure = null;
            try {
                renewed = renewal.getAsBoolean();
            } catch (RuntimeException e) {
                // Unconfirmed is treated as lost: the operation must hear of it before the
                // lease can run out, and the next beat might come too late.
                renewed = false;
                failure = e;
            }
            synchronized (this) {
                renewing = null;
                notifyAll();
                if (pending != attempt || !running) {
                    return; // its deadline passed (told already), or the beat was closed
                }
                pending = null;
            }
            if (failure != null) {
                LOG.log(
                        Level.WARNING,
                        "idemkit could not renew a lease ("
                                + failure.getMessage()
                                + "); the operation is told its lease is lost, and its result may"
                                + " be discarded. Check that the store is reachable.");
            }
            if (!renewed) {
                lost();
            }
        }

        /** On the scheduler, once the renewal's deadline has passed. */
        private void checkDeadline(Attempt attempt) {
            synchronized (this) {
                if (pending != attempt || !running) {
                    return; // answered in time, or closed
                }
            }
            LOG.log(
                    Level.WARNING,
                    "idemkit gave up on a lease renewal still unanswered after "
                            + Duration.ofNanos(deadlineNanos).toMillis()
                            + " ms (waiting for a connection, or for the store to answer); the"
                            + " operation is told its lease is lost before it can lapse, and its"
                            + " result may be discarded. Check the store's latency, its pool, and"
                            + " the driver's socket timeout.");
            lost();
        }

        private void lost() {
            synchronized (this) {
                if (!running) {
                    return;
                }
                running = false;
                telling = true;
            }
            stop();
            try {
                threads.notifier.execute(this::tell);
            } catch (RejectedExecutionException e) {
                tell(); // the heartbeat is closing: tell on this thread
            }
        }

        /** On a notifier: the flag first (onLoss), then the interrupt, which must find it set. */
        private void tell() {
            synchronized (this) {
                teller = Thread.currentThread();
            }
            try {
                onLoss.run();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "idemkit's lease loss handler failed", e);
            } finally {
                synchronized (this) {
                    telling = false;
                    teller = null;
                    if (interruptOwner) {
                        interrupted = true;
                        owner.interrupt();
                    }
                    notifyAll();
                }
            }
        }

        /** Stops beating, without waiting for anything. */
        private void stop() {
            synchronized (this) {
                running = false;
            }
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
            beats.remove(this);
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
         * Stops the beat, and waits for a renewal or a loss notice that is running to end, at most
         * one beat (never more than {@link #MAX_CLOSE_WAIT}). What the operation does next (a
         * completion inside its transaction, C13) may lock the record's row until a commit: a
         * renewal still running would wait behind that lock, and fail the lease of an operation
         * that is about to complete (C4.7). Call it on the operation's thread, or on any thread
         * once the beat is {@linkplain #handOver() handed over}; it never interrupts afterwards,
         * and an interrupt this beat raised is cleared on the operation's thread, so that it does
         * not leak into the thread's next task.
         */
        @Override
        public void close() {
            stop();
            synchronized (this) {
                interruptOwner = false;
                awaitQuiet();
                if (interrupted && Thread.currentThread() == owner) {
                    interrupted = false;
                    Thread.interrupted();
                }
            }
        }

        /** Waits, holding this beat's monitor, until nothing of it runs or the bound has passed. */
        private void awaitQuiet() {
            long deadline = System.nanoTime() + closeWaitNanos;
            boolean interruptedHere = false;
            Thread self = Thread.currentThread();
            while ((renewing != null && renewing != self) || (telling && teller != self)) {
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
