package io.idemkit.testkit;

import static org.awaitility.Awaitility.await;

import io.idemkit.spi.IdempotencyRecord;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A waiter thread that is known to be parked inside the store's wait before the test acts, so that
 * a test of wake-up really tests the wake-up and not a read that came after the change.
 */
final class ParkedWaiter implements AutoCloseable {

    private final ExecutorService executor;
    private final Future<Optional<IdempotencyRecord>> result;

    private ParkedWaiter(ExecutorService executor, Future<Optional<IdempotencyRecord>> result) {
        this.executor = executor;
        this.result = result;
    }

    static ParkedWaiter start(Callable<Optional<IdempotencyRecord>> wait) {
        AtomicReference<Thread> thread = new AtomicReference<>();
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        runnable -> {
                            Thread t = new Thread(runnable, "contract-waiter");
                            thread.set(t);
                            return t;
                        });
        Future<Optional<IdempotencyRecord>> result = executor.submit(wait);
        await().atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                thread.get() != null
                                        && (thread.get().getState() == Thread.State.WAITING
                                                || thread.get().getState()
                                                        == Thread.State.TIMED_WAITING));
        return new ParkedWaiter(executor, result);
    }

    Optional<IdempotencyRecord> result(Duration atMost) throws Exception {
        return result.get(atMost.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
