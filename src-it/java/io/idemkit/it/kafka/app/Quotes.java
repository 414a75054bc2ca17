package io.idemkit.it.kafka.app;

import io.idemkit.Idempotent;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;

/**
 * A pipeline stage, {@code @Idempotent @Incoming @Outgoing}: an order's tag in, a quote out, each
 * quote with a price no run gives twice, so that a re-sent quote is told from a recomputed one.
 * {@code @Blocking} as in {@link Payments}.
 */
@ApplicationScoped
public class Quotes {

    private static final AtomicInteger PRICES = new AtomicInteger();

    @Idempotent
    @Incoming("orders")
    @Outgoing("quotes")
    @Blocking
    public Message<String> quote(Message<String> order) {
        Counts.add(order.getPayload(), "runs");
        return order.withPayload(order.getPayload() + " costs " + PRICES.incrementAndGet());
    }
}
