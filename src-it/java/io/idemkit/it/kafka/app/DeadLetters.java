package io.idemkit.it.kafka.app;

import io.idemkit.IdempotencyRecordExhausted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;

/**
 * Forwards every record given up to a dead-letter topic, as an application does with MicroProfile
 * Reactive Messaging alone (C17.4): an {@code Emitter}, waited for, so that a forward that fails
 * nacks the record instead of losing it. Not where records given up are nacked ({@code
 * idemkit.message.exhausted=nack}): the connector's dead-letter strategy forwards them there.
 */
@ApplicationScoped
public class DeadLetters {

    @Inject
    @Channel("dead-letters")
    Emitter<String> deadLetters;

    @Inject
    @ConfigProperty(name = "idemkit.message.exhausted", defaultValue = "acknowledge")
    String exhausted;

    void forward(@Observes IdempotencyRecordExhausted event) throws Exception {
        if (exhausted.equals("nack")) {
            return;
        }
        deadLetters
                .send(String.valueOf(event.message().getPayload()))
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
    }
}
