package io.idemkit.method;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler that runs nothing by itself: {@link #runDue()} runs every periodic task once, on the
 * test's thread, so that heartbeat tests beat when they say and never sleep.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final List<Task> tasks = new CopyOnWriteArrayList<>();

    /** Runs each live periodic task once. */
    void runDue() {
        for (Task task : new ArrayList<>(tasks)) {
            if (!task.cancelled) {
                task.command.run();
            }
        }
    }

    int liveTasks() {
        return (int) tasks.stream().filter(t -> !t.cancelled).count();
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
            Runnable command, long initialDelay, long delay, TimeUnit unit) {
        Task task = new Task(command);
        tasks.add(task);
        return task;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(
            Runnable command, long initialDelay, long period, TimeUnit unit) {
        return scheduleWithFixedDelay(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void shutdown() {
        throw new AssertionError("a borrowed scheduler must never be shut down by idemkit");
    }

    @Override
    public List<Runnable> shutdownNow() {
        throw new AssertionError("a borrowed scheduler must never be shut down by idemkit");
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    private static final class Task implements ScheduledFuture<Object> {
        private final Runnable command;
        private volatile boolean cancelled;

        Task(Runnable command) {
            this.command = command;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(Delayed other) {
            return 0;
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled;
        }

        @Override
        public Object get() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            throw new UnsupportedOperationException();
        }
    }
}
