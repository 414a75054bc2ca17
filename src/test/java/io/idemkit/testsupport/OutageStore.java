package io.idemkit.testsupport;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A store that can go down: while it is down every call throws {@link IdempotencyStorageException},
 * with a message naming an address, as a driver's would; otherwise it forwards to the store it
 * wraps.
 */
public final class OutageStore extends ForwardingStore {

    /** What the failures say; an answer to a client must not repeat it. */
    public static final String FAILURE = "Timed out connecting to 10.1.2.3:27017";

    private volatile boolean down;

    public OutageStore(IdempotencyStore delegate) {
        super(delegate);
    }

    /** From now on, every call fails. */
    public void goDown() {
        down = true;
    }

    /** From now on, calls reach the store again. */
    public void comeBack() {
        down = false;
    }

    private void failIfDown() {
        if (down) {
            throw new IdempotencyStorageException(FAILURE);
        }
    }

    @Override
    public ClaimResult claim(String key, String fingerprint, int version, Duration leaseTtl) {
        failIfDown();
        return super.claim(key, fingerprint, version, leaseTtl);
    }

    @Override
    public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
        failIfDown();
        return super.complete(key, token, result, ttl);
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        failIfDown();
        return super.release(key, token);
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        failIfDown();
        return super.renew(key, token, leaseTtl);
    }

    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        failIfDown();
        return super.awaitCompletion(key, timeout);
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        failIfDown();
        return super.find(key);
    }

    @Override
    public boolean delete(String key) {
        failIfDown();
        return super.delete(key);
    }

    @Override
    public StoreHealth health() {
        failIfDown();
        return super.health();
    }

    @Override
    public long purgeExpired() {
        failIfDown();
        return super.purgeExpired();
    }

    @Override
    public Instant now() {
        failIfDown();
        return super.now();
    }
}
