package io.idemkit.it.transaction.slowcommit;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import jakarta.annotation.Resource;
import jakarta.ejb.Stateless;
import jakarta.inject.Inject;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * A stateless EJB whose container-managed transaction commits slowly: the method registers a
 * synchronization whose {@code beforeCompletion} takes {@code commitMillis}, as a slow resource's
 * prepare would. The container's transaction begins before any interceptor and commits after they
 * have all returned, so idemkit completes the record only after that slow commit (C7), with a lease
 * (3 s) much shorter than it.
 */
@Stateless
public class SlowCommits {

    @Inject Progress progress;

    @Resource TransactionSynchronizationRegistry transactions;

    @Idempotent(leaseTtl = "3s")
    public String pay(@IdempotencyKey String key, @IdempotencyIgnored long commitMillis) {
        int run = progress.count("runs", key);
        SlowCommit.register(
                transactions,
                commitMillis,
                () -> progress.count("committing", key),
                () -> progress.count("commit-interrupted", key));
        return "paid " + key + " on run " + run;
    }
}
