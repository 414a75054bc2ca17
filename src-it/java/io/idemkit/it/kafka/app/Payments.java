package io.idemkit.it.kafka.app;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * An {@code @Idempotent @Incoming} method as an application writes it: its effect is one count per
 * run under the record's payload, which the tests read through {@link EffectsResource}.
 */
@ApplicationScoped
public class Payments {

    static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    @Idempotent
    @Incoming("payments")
    public CompletionStage<Void> consume(Message<String> message) {
        RUNS.computeIfAbsent(message.getPayload(), p -> new AtomicInteger()).incrementAndGet();
        return message.ack();
    }
}
