package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Random operations on a store far too small for its keys, by entries and by bytes, checked after
 * every step: a claim in progress is never evicted and its completion always goes through (C10.2),
 * a new key is refused only when no completed record is left to evict (C10.3), and the store stays
 * within its limits whenever it could (C10.1).
 */
class InMemoryEvictionProperties {

    private static final int MAX_SIZE = 4;
    private static final long MAX_BYTES = 4_000;
    private static final int KEYS = 8;

    /** One step: what to do, to which key, and a size (seconds of lease or clock, body bytes). */
    record Step(Kind kind, int key, int amount) {}

    enum Kind {
        CLAIM,
        COMPLETE,
        RELEASE,
        DELETE,
        COUNT_ATTEMPT,
        ADVANCE,
        PURGE
    }

    @Property(tries = 500)
    void randomSteps_neverEvictAClaimInProgress_andRefuseOnlyWhenNothingIsEvictable(
            @ForAll("steps") List<Step> steps) {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        InMemoryIdempotencyStore store =
                new InMemoryIdempotencyStore(clock, MAX_SIZE, MAX_BYTES, null);
        // The claims this caller won and has not finished, as they were when won.
        Map<String, IdempotencyRecord> claims = new HashMap<>();
        for (Step step : steps) {
            String key = "key-" + step.key();
            switch (step.kind()) {
                case CLAIM -> {
                    try {
                        ClaimResult claim =
                                store.claim(key, "fp", 1, Duration.ofSeconds(step.amount()));
                        if (claim.status().won()) {
                            claims.put(key, claim.record());
                        }
                    } catch (IdempotencyStorageException refused) {
                        Statistics.label("claim").collect("refused");
                        assertThat(completedKeys(store))
                                .as("a new key is refused only with nothing to evict (C10.3)")
                                .isEmpty();
                    }
                }
                case COMPLETE -> {
                    IdempotencyRecord claimed = claims.remove(ownKey(claims, step.key()));
                    if (claimed != null) {
                        boolean live = claimed.leaseUntil().isAfter(clock.instant());
                        boolean done =
                                store.complete(
                                        claimed.key(),
                                        claimed.token(),
                                        new StoredResult(200, List.of(), new byte[step.amount()]),
                                        Duration.ofSeconds(30 + step.amount() % 120));
                        if (live) {
                            assertThat(done).as("a live claim's completion (C10.2)").isTrue();
                        }
                    }
                }
                case RELEASE -> {
                    IdempotencyRecord claimed = claims.remove(ownKey(claims, step.key()));
                    if (claimed != null) {
                        store.release(claimed.key(), claimed.token());
                    }
                }
                case DELETE -> {
                    claims.remove(key);
                    store.delete(key);
                }
                case COUNT_ATTEMPT -> {
                    try {
                        store.countAttempt("attempts-" + step.key(), Duration.ofMinutes(1));
                    } catch (IdempotencyStorageException refused) {
                        assertThat(completedKeys(store)).isEmpty();
                    }
                }
                case ADVANCE -> clock.advance(Duration.ofSeconds(step.amount()));
                case PURGE -> store.purgeExpired();
            }
            for (IdempotencyRecord claimed : claims.values()) {
                if (claimed.leaseUntil().isAfter(clock.instant())) {
                    Optional<IdempotencyRecord> held = store.find(claimed.key());
                    assertThat(held.map(IdempotencyRecord::token))
                            .as("the live claim of " + claimed.key() + " (C10.2)")
                            .contains(claimed.token());
                    assertThat(held.orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
                }
            }
            assertThat(store.size()).isLessThanOrEqualTo(MAX_SIZE);
            if (!completedKeys(store).isEmpty()) {
                assertThat(store.bytes()).isLessThanOrEqualTo(MAX_BYTES);
            }
        }
        Statistics.label("evictions")
                .collect((Long) store.health().details().get("evictions") > 0 ? "some" : "none");
        // The steps must make the store evict often, or the checks above prove little.
        Statistics.label("evictions")
                .coverage(coverage -> coverage.check("some").percentage(p -> p > 20));
    }

    /** The {@code pick}-th of the claims this caller holds, or {@code null} with none. */
    private static String ownKey(Map<String, IdempotencyRecord> claims, int pick) {
        List<String> keys = claims.keySet().stream().sorted().toList();
        return keys.isEmpty() ? null : keys.get(pick % keys.size());
    }

    private static List<String> completedKeys(InMemoryIdempotencyStore store) {
        return IntStream.range(0, KEYS)
                .mapToObj(k -> "key-" + k)
                .filter(
                        k ->
                                store.find(k)
                                        .filter(r -> r.state() == RecordState.COMPLETED)
                                        .isPresent())
                .toList();
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Step> step =
                Combinators.combine(
                                Arbitraries.frequencyOf(
                                        Tuple.of(6, Arbitraries.just(Kind.CLAIM)),
                                        Tuple.of(5, Arbitraries.just(Kind.COMPLETE)),
                                        Tuple.of(2, Arbitraries.just(Kind.ADVANCE)),
                                        Tuple.of(1, Arbitraries.of(Kind.class))),
                                Arbitraries.integers().between(0, KEYS - 1),
                                Arbitraries.integers().between(1, 1_500))
                        .as(
                                (kind, key, amount) ->
                                        new Step(
                                                kind,
                                                key,
                                                switch (kind) {
                                                    case CLAIM -> 1 + amount % 120;
                                                    case ADVANCE -> amount % 90;
                                                    default -> amount;
                                                }));
        return step.list().ofMinSize(1).ofMaxSize(60);
    }
}
