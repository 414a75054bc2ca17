package io.idemkit.store.memory;

import io.idemkit.spi.IdempotencyStore;
import io.idemkit.testkit.IdempotencyStoreContract;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;

/** The in-memory store against the store contract suite, on a manual clock (C10). */
class InMemoryStoreContractTest extends IdempotencyStoreContract {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 100_000);

    @AfterEach
    void close() {
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Override
    protected void elapse(Duration amount) {
        clock.advance(amount);
    }
}
