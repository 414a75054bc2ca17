package io.idemkit.it.message;

import io.idemkit.IdempotencyMessageExhausted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;

/** Counts the messages idemkit gave up, by their tag. */
@ApplicationScoped
public class ExhaustedLog {

    @Inject Ledger ledger;

    void on(@Observes IdempotencyMessageExhausted event) throws JMSException {
        ledger.count("exhausted", event.message().getStringProperty("tag"));
        ledger.count(
                "exhausted-attempts-" + event.attempts(), event.message().getStringProperty("tag"));
    }
}
