package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;

/**
 * What the engine's tests share: an engine on the in-memory store and a manual clock, the events it
 * emits, a thread pool, a default policy, and helpers to build operations and results. Each test
 * gets fresh ones, closed after it.
 */
abstract class IdempotencyEngineFixture {

    static final Duration LEASE = Duration.ofSeconds(30);
    static final OperationPolicy POLICY =
            new OperationPolicy(
                    LEASE,
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse("2xx"));

    final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1000);
    final List<IdempotencyEvent> events = new CopyOnWriteArrayList<>();
    final LeaseHeartbeat heartbeat = new LeaseHeartbeat(true);
    final IdempotencyEngine engine = engineOn(store);
    final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void close() {
        pool.shutdownNow();
        engine.close();
        store.close();
    }

    IdempotencyEngine engineOn(IdempotencyStore on) {
        return new IdempotencyEngine(on, events::add, heartbeat, Ticker.system());
    }

    static Operation op(String fingerprint) {
        return op(fingerprint, POLICY);
    }

    static Operation op(String fingerprint, OperationPolicy policy) {
        return new Operation("e".repeat(64), fingerprint, 1, policy, "http");
    }

    static StoredResult created(String body) {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/1")),
                body.getBytes(StandardCharsets.UTF_8));
    }

    static OperationPolicy withWait(Duration wait) {
        return new OperationPolicy(
                LEASE, POLICY.completedTtl(), wait, POLICY.onStorageError(), POLICY.cacheable());
    }

    Execution proceed(Operation operation) {
        Admission admission = engine.admit(operation);
        assertThat(admission).isInstanceOf(Admission.Proceed.class);
        return ((Admission.Proceed) admission).execution();
    }

    List<Decision> decisions() {
        return events.stream().map(IdempotencyEvent::decision).toList();
    }
}
