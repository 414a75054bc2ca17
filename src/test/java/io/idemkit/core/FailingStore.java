package io.idemkit.core;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A store that is down: every operation throws the given failure. */
final class FailingStore implements IdempotencyStore {

    private final RuntimeException failure;

    FailingStore(RuntimeException failure) {
        this.failure = failure;
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, int version, Duration leaseTtl) {
        throw failure;
    }

    @Override
    public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
        throw failure;
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        throw failure;
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        throw failure;
    }

    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout) {
        throw failure;
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        throw failure;
    }

    @Override
    public boolean delete(String key) {
        throw failure;
    }

    @Override
    public Instant now() {
        throw failure;
    }

    @Override
    public String name() {
        return "failing";
    }
}
