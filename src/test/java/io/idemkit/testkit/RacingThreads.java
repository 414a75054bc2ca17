package io.idemkit.testkit;

import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The end of a race of threads that start each round together on a barrier. */
public final class RacingThreads {

    private RacingThreads() {}

    /**
     * Waits for every run and, if any failed, throws the failure that started it: one thread's
     * exception breaks the barrier for all the others, and their {@code BrokenBarrierException}
     * alone says nothing about what went wrong.
     *
     * @param runs the racing threads' futures
     * @throws AssertionError naming the first failure, with the others suppressed
     */
    public static void awaitAll(List<Future<?>> runs) throws Exception {
        Throwable cause = null;
        Throwable broken = null;
        for (Future<?> run : runs) {
            try {
                run.get(5, TimeUnit.MINUTES);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof BrokenBarrierException) {
                    broken = broken == null ? e.getCause() : broken;
                } else if (cause == null) {
                    cause = e.getCause();
                } else {
                    cause.addSuppressed(e.getCause());
                }
            }
        }
        if (cause != null) {
            throw new AssertionError("a racing thread failed", cause);
        }
        if (broken != null) {
            throw new AssertionError(
                    "the barrier broke with no thread failing (a 30 s wait?)", broken);
        }
    }
}
