package io.idemkit.testsupport;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.time.Clock;
import java.time.Duration;

/** A store whose every claim fails. */
@Alternative
@Priority(100)
@ApplicationScoped
public class DownStore extends ForwardingStore {
    public DownStore() {
        super(new InMemoryIdempotencyStore(Clock.systemUTC(), 10));
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, int version, Duration leaseTtl) {
        throw new IdempotencyStorageException("the store is down");
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        throw new IdempotencyStorageException("the store is down");
    }
}
