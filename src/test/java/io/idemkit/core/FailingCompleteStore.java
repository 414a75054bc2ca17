package io.idemkit.core;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.ForwardingStore;
import java.time.Duration;

/** A store that goes down exactly when a result is to be stored. */
final class FailingCompleteStore extends ForwardingStore {

    FailingCompleteStore(IdempotencyStore delegate) {
        super(delegate);
    }

    @Override
    public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
        throw new IdempotencyStorageException("down while completing");
    }
}
