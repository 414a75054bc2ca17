package io.idemkit.it.transaction.slowcommit;

import io.idemkit.IdempotencyEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Locale;

/**
 * Counts the library's events by decision ({@code new}, {@code replayed}, {@code lease_reclaimed},
 * {@code lease_lost}, ...), under the key {@code all}: events carry no raw key.
 */
@ApplicationScoped
public class Decisions {

    @Inject Progress progress;

    void on(@Observes IdempotencyEvent event) {
        progress.count(event.decision().name().toLowerCase(Locale.ROOT), "all");
    }
}
