package io.idemkit.it.method.problems;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;

/** A CDI bean whose amount is fingerprinted, so that reusing a key with another is a mismatch. */
@ApplicationScoped
public class Charges {

    @Idempotent
    public String charge(@IdempotencyKey String key, int amount) {
        return "charged-" + amount;
    }
}
