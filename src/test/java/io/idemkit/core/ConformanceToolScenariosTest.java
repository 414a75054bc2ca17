package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code ai_tool_scenarios} of {@code idemkit-conformance.yaml} that the engine can show
 * without the method interceptor: each test names its vector. {@code tool-arg-normalization} needs
 * key derivation from selected arguments, which belongs to the method surface; {@code
 * tool-pickle-opt-in-warns} has no Java counterpart (results are only ever JSON).
 */
class ConformanceToolScenariosTest {

    private static final OperationPolicy POLICY =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(24),
                    Duration.ofSeconds(10),
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse(CacheableStatuses.DEFAULT));

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 1000);
    private final IdempotencyEngine engine =
            new IdempotencyEngine(store, event -> {}, new LeaseHeartbeat(true), Ticker.system());
    private final AtomicInteger executions = new AtomicInteger();

    @AfterEach
    void close() {
        engine.close();
        store.close();
    }

    private static Operation tool(String args, OperationPolicy policy) {
        String key =
                EffectiveKey.forMethod(args, ScopeResolver.SINGLE_TENANT_SCOPE, "Tools", "book");
        return new Operation(
                key, "fp:" + args, IdempotencyRecord.CURRENT_FINGERPRINT_VERSION, policy, "method");
    }

    private String book(String args) throws Exception {
        return engine.execute(
                tool(args, POLICY),
                () -> "booked-" + args + "-" + executions.incrementAndGet(),
                Codecs.TEXT,
                false);
    }

    @Test
    void toolRetryDedup_fiveCallsRunTheSideEffectOnceAndAllResultsAreIdentical() throws Exception {
        List<String> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(book("SFO-JFK"));
        }

        assertThat(executions.get()).isEqualTo(1);
        assertThat(results).containsOnly("booked-SFO-JFK-1");
    }

    @Test
    void toolConcurrentCalls_tenIdenticalCallsExecuteOnce() throws Exception {
        int callers = 10;
        CyclicBarrier start = new CyclicBarrier(callers);
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<String>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                calls.add(
                        pool.submit(
                                () -> {
                                    start.await(10, TimeUnit.SECONDS);
                                    return book("x=v");
                                }));
            }
            for (Future<String> call : calls) {
                assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("booked-x=v-1");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(executions.get()).isEqualTo(1);
    }

    @Test
    void toolCrashRecovery_aCallThatRaisesReleasesAndTheRetryRunsOnce() throws Exception {
        assertThatThrownBy(
                        () ->
                                engine.execute(
                                        tool("x=v", POLICY),
                                        () -> {
                                            executions.incrementAndGet();
                                            throw new IllegalStateException("tool crashed");
                                        },
                                        Codecs.TEXT,
                                        false))
                .hasMessage("tool crashed");

        assertThat(book("x=v")).isEqualTo("booked-x=v-2");
        assertThat(book("x=v")).isEqualTo("booked-x=v-2");
        assertThat(executions.get()).isEqualTo(2);
    }

    @Test
    void toolUnserializableResultFailsClosed_errorRaisedNothingCachedAndNoImmediateRerun() {
        ResultCodec<Integer> json =
                new ResultCodec<>() {
                    @Override
                    public StoredResult encode(Integer value) {
                        throw new IllegalArgumentException("result is not JSON-serializable");
                    }

                    @Override
                    public Integer decode(StoredResult result) {
                        throw new AssertionError("nothing was cached");
                    }
                };
        assertThatThrownBy(
                        () ->
                                engine.execute(
                                        tool("x=v", POLICY),
                                        executions::incrementAndGet,
                                        json,
                                        false))
                .hasMessage("result is not JSON-serializable");
        assertThat(store.find(tool("x=v", POLICY).effectiveKey()).orElseThrow().result()).isNull();

        OperationPolicy noWait =
                new OperationPolicy(
                        POLICY.leaseTtl(),
                        POLICY.completedTtl(),
                        Duration.ZERO,
                        POLICY.onStorageError(),
                        POLICY.cacheable());
        assertThatThrownBy(
                        () ->
                                engine.execute(
                                        tool("x=v", noWait),
                                        () -> "again-" + executions.incrementAndGet(),
                                        Codecs.TEXT,
                                        false))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(executions.get()).isEqualTo(1);
    }
}
