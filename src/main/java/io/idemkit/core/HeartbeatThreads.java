package io.idemkit.core;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a {@link LeaseHeartbeat}'s three kinds of work run (C4.7): the scheduler, which only
 * dispatches renewals and checks their deadlines; the workers, which run renewals; the notifier,
 * which tells losses. Either all on a borrowed scheduler, or on daemon threads of the heartbeat's
 * own: one scheduler thread, and up to {@link LeaseHeartbeat#RENEWAL_THREADS} threads each for the
 * workers and the notifier, idle ones ending after {@link #IDLE}.
 */
final class HeartbeatThreads {

    /** How long an idle renewal or notifier thread of the heartbeat's own lives. */
    static final Duration IDLE = Duration.ofSeconds(30);

    final ScheduledExecutorService scheduler;
    final Executor workers;
    final Executor notifier;
    private final boolean own;

    private HeartbeatThreads(
            ScheduledExecutorService scheduler, Executor workers, Executor notifier, boolean own) {
        this.scheduler = scheduler;
        this.workers = workers;
        this.notifier = notifier;
        this.own = own;
    }

    /** Everything on a scheduler someone else owns, never shut down here. */
    static HeartbeatThreads borrowed(ScheduledExecutorService scheduler) {
        return new HeartbeatThreads(scheduler, scheduler, scheduler, false);
    }

    /** Daemon threads of the heartbeat's own, created as needed. */
    static HeartbeatThreads own() {
        ScheduledThreadPoolExecutor scheduler =
                new ScheduledThreadPoolExecutor(1, daemons("idemkit-lease-heartbeat"));
        scheduler.setRemoveOnCancelPolicy(true);
        return new HeartbeatThreads(
                scheduler, bounded("idemkit-lease-renewal"), bounded("idemkit-lease-loss"), true);
    }

    /**
     * Stops the heartbeat's own threads; a renewal stuck in a store call is interrupted and left to
     * end. A borrowed scheduler is left running.
     */
    void shutdown() {
        if (own) {
            scheduler.shutdownNow();
            ((ThreadPoolExecutor) workers).shutdownNow();
            ((ThreadPoolExecutor) notifier).shutdownNow();
        }
    }

    private static ThreadPoolExecutor bounded(String name) {
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(
                        LeaseHeartbeat.RENEWAL_THREADS,
                        LeaseHeartbeat.RENEWAL_THREADS,
                        IDLE.toMillis(),
                        TimeUnit.MILLISECONDS,
                        new LinkedBlockingQueue<>(),
                        daemons(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
