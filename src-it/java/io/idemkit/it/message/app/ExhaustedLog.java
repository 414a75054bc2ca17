package io.idemkit.it.message.app;

import io.idemkit.IdempotencyMessageExhausted;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.jms.JMSException;

/**
 * Counts the messages idemkit gave up, by their tag, and what the event said of them; {@code
 * exhausted} last, so that a test that waits for it finds the others counted.
 */
@ApplicationScoped
public class ExhaustedLog {

    @Inject Ledger ledger;

    void on(@Observes IdempotencyMessageExhausted event) throws JMSException {
        String tag = event.message().getStringProperty("tag");
        ledger.count("exhausted-attempts-" + event.attempts(), tag);
        if (event.lastFailure().equals("java.lang.IllegalStateException")) {
            ledger.count("exhausted-with-last-failure", tag);
        }
        ledger.count("exhausted", tag);
    }
}
