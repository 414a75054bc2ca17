package io.idemkit.it.kafka.app;

import io.idemkit.Idempotent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Four consumers of one topic, each in a consumer group of its own, so that each receives every
 * record at about the same time: one operation ({@code name = "race"}) with four entries, the
 * reference's queue-concurrent-redelivery. A run takes half a second and counts under the tag.
 * {@code @Blocking} as in {@link Payments}.
 */
@ApplicationScoped
public class Races {

    @Idempotent(name = "race")
    @Incoming("race-a")
    @Blocking
    public CompletionStage<Void> a(Message<String> record) throws InterruptedException {
        return run(record);
    }

    @Idempotent(name = "race")
    @Incoming("race-b")
    @Blocking
    public CompletionStage<Void> b(Message<String> record) throws InterruptedException {
        return run(record);
    }

    @Idempotent(name = "race")
    @Incoming("race-c")
    @Blocking
    public CompletionStage<Void> c(Message<String> record) throws InterruptedException {
        return run(record);
    }

    @Idempotent(name = "race")
    @Incoming("race-d")
    @Blocking
    public CompletionStage<Void> d(Message<String> record) throws InterruptedException {
        return run(record);
    }

    private static CompletionStage<Void> run(Message<String> record) throws InterruptedException {
        Counts.add(record.getPayload(), "runs");
        Thread.sleep(500);
        return record.ack();
    }
}
