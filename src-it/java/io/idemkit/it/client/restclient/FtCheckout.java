package io.idemkit.it.client.restclient;

import io.idemkit.client.IdempotentOperation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * The calling application retrying with MicroProfile Fault Tolerance's {@code @Retry}, on the same
 * method as {@code @IdempotentOperation}: every attempt sends the call again, with its key (C14.3).
 */
@ApplicationScoped
public class FtCheckout {

    private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

    @IdempotentOperation
    @Retry(maxRetries = 4, delay = 100, jitter = 0, retryOn = ProcessingException.class)
    public String charge(URI base, String kind, String tag) {
        attempts.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
        return RestCheckout.at(base, 10).charge(kind, tag, "{\"amount\":1999}");
    }

    /**
     * {@code @Asynchronous @Timeout @Retry} where attempt 1 is slow before it sends: the timeout
     * fires, attempt 2 begins and sends its charge, and attempt 1, deaf to the timeout's interrupt
     * as much code is, sends its charge late. Both must carry one key.
     */
    @IdempotentOperation
    @Asynchronous
    @Timeout(1500)
    @Retry(maxRetries = 1, delay = 0, jitter = 0)
    public CompletionStage<String> slowToSend(URI base, String tag) {
        int attempt = attempts.computeIfAbsent(tag, t -> new AtomicInteger()).incrementAndGet();
        if (attempt == 1) {
            pauseUninterruptibly(2500);
        }
        return CompletableFuture.completedFuture(
                RestCheckout.at(base, 10).charge("once", tag, "{\"amount\":1999}"));
    }

    private static void pauseUninterruptibly(long millis) {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean interrupted = false;
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @return how many times Fault Tolerance ran the method's body for {@code tag}
     */
    public int attempts(String tag) {
        AtomicInteger n = attempts.get(tag);
        return n == null ? 0 : n.get();
    }
}
