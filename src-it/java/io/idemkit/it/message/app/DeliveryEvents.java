package io.idemkit.it.message.app;

import io.idemkit.IdempotencyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Locale;

/**
 * Counts, from the library's events of the message surface, the deliveries that met a store failure
 * (evidence that a redelivered message met it more often than its attempts would allow, had those
 * deliveries counted), the deliveries that were replayed, and those that waited for a first
 * delivery still running (evidence that deliveries overlapped), and every event by its decision
 * ({@code decision-new}, {@code decision-lease_reclaimed}, ...). The events carry no tag, so the
 * counts are the application's, under the tag {@code all}.
 */
@ApplicationScoped
public class DeliveryEvents {

    @Inject Ledger ledger;

    void on(@Observes IdempotencyEvent event) {
        if (!"message".equals(event.surface())) {
            return;
        }
        if (event.decision().isStoreFailure()) {
            ledger.count("store-failures", "all");
        }
        if (event.decision() == IdempotencyEvent.Decision.REPLAYED) {
            ledger.count("replayed", "all");
        }
        if (!event.waitDuration().isZero()) {
            ledger.count("waited", "all");
        }
        ledger.count("decision-" + event.decision().name().toLowerCase(Locale.ROOT), "all");
    }
}
