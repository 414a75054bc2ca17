package io.idemkit.testsupport;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A store that forwards every call to another; test subclasses change one behaviour. */
public abstract class ForwardingStore implements IdempotencyStore {

    private final IdempotencyStore delegate;

    protected ForwardingStore(IdempotencyStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, int version, Duration leaseTtl) {
        return delegate.claim(key, fingerprint, version, leaseTtl);
    }

    @Override
    public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
        return delegate.complete(key, token, result, ttl);
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        return delegate.release(key, token);
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        return delegate.renew(key, token, leaseTtl);
    }

    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        return delegate.awaitCompletion(key, timeout);
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        return delegate.find(key);
    }

    @Override
    public boolean delete(String key) {
        return delegate.delete(key);
    }

    @Override
    public StoreHealth health() {
        return delegate.health();
    }

    @Override
    public long purgeExpired() {
        return delegate.purgeExpired();
    }

    @Override
    public boolean completeInTransaction(
            String key, ClaimToken token, StoredResult result, Duration ttl) {
        return delegate.completeInTransaction(key, token, result, ttl);
    }

    @Override
    public void completionCommitted(String key) {
        delegate.completionCommitted(key);
    }

    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        return delegate.countAttempt(attemptsKey, retention);
    }

    @Override
    public Instant now() {
        return delegate.now();
    }

    @Override
    public String name() {
        return delegate.name();
    }
}
