package io.idemkit.it.transaction.app;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import javax.sql.DataSource;

/**
 * {@code @Idempotent @Transactional} CDI methods that write a business row on the JTA data source
 * and can be held inside their transaction ({@code holdInside}) or, through {@link
 * PauseAfterCommit}, just after its commit ({@code holdAfter}); {@code fail} throws after the
 * write, which rolls it back.
 */
@ApplicationScoped
public class Payments {

    @Resource(lookup = "java:comp/env/jdbc/business")
    DataSource business;

    @Idempotent(completion = "in-transaction", leaseTtl = "60s")
    @Transactional
    public String pay(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored String holdInside,
            @IdempotencyIgnored String holdAfter,
            @IdempotencyIgnored boolean fail)
            throws InterruptedException {
        return write(key, tag, holdInside, fail);
    }

    @Idempotent(completion = "in-transaction", leaseTtl = "8s")
    @Transactional
    @PauseAfterCommit
    public String payShortLease(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored String holdInside,
            @IdempotencyIgnored String holdAfter,
            @IdempotencyIgnored boolean fail)
            throws InterruptedException {
        return write(key, tag, holdInside, fail);
    }

    @Idempotent(completion = "after-commit", leaseTtl = "8s")
    @Transactional
    @PauseAfterCommit
    public String payCompletingAfterCommit(
            @IdempotencyKey String key,
            @IdempotencyIgnored String tag,
            @IdempotencyIgnored String holdInside,
            @IdempotencyIgnored String holdAfter,
            @IdempotencyIgnored boolean fail)
            throws InterruptedException {
        return write(key, tag, holdInside, fail);
    }

    private String write(String key, String tag, String holdInside, boolean fail)
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
