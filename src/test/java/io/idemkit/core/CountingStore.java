package io.idemkit.core;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/** A store that counts lease renewals. */
final class CountingStore extends ForwardingStore {

    private final AtomicInteger renewals = new AtomicInteger();

    CountingStore(IdempotencyStore delegate) {
        super(delegate);
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        renewals.incrementAndGet();
        return super.renew(key, token, leaseTtl);
    }

    int renewals() {
        return renewals.get();
    }
}
