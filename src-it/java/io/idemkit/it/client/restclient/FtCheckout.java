package io.idemkit.it.client.restclient;

import io.idemkit.client.IdempotentOperation;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Retry;

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
     * @return how many times Fault Tolerance ran the method's body for {@code tag}
     */
    public int attempts(String tag) {
        AtomicInteger n = attempts.get(tag);
        return n == null ? 0 : n.get();
    }
}
