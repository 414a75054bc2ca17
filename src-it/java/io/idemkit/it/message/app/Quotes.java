package io.idemkit.it.message.app;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/** A result-bearing operation: a price that differs on every run, so a replay shows. */
@ApplicationScoped
public class Quotes {

    @Inject Ledger ledger;

    @Idempotent
    public String price(@IdempotencyKey String key, String item) {
        ledger.count("quotes", key);
        return item + " costs " + UUID.randomUUID();
    }
}
