package io.idemkit.it.transaction.app;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import javax.sql.DataSource;

/** The same business write in a stateless EJB's container-managed transaction. */
@Stateless
public class PaymentsEjb {

    @Resource(lookup = "java:comp/env/jdbc/business")
    DataSource business;

    @Idempotent(completion = "in-transaction", leaseTtl = "60s")
    public String pay(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored String holdInside,
            @IdempotencyIgnored String holdAfter,
            @IdempotencyIgnored boolean fail)
            throws InterruptedException {
        BusinessRows.insert(business, key, tag);
        Progress.ran(tag);
        Progress.awaitMarker(holdInside);
        if (fail) {
            throw new IllegalStateException("refused after the write");
        }
        return "paid " + key;
    }
}
