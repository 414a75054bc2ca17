package io.idemkit.store.memory;

import static io.idemkit.testsupport.CardRedaction.CARD;
import static io.idemkit.testsupport.CardRedaction.MASKED;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.CardRedaction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The in-memory store keeps only the redactor's copy of a result (C4.10, C10). */
class InMemoryRedactionTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 10);
    private final IdempotencyEngine engine =
            new IdempotencyEngine(store, event -> {}, new LeaseHeartbeat(false), Ticker.system());

    @AfterEach
    void close() {
        engine.close();
        store.close();
    }

    @Test
    void completedRecord_holdsTheRedactedCopy_neverTheCard() {
        OperationPolicy policy =
                new OperationPolicy(
                                Duration.ofSeconds(30),
                                Duration.ofHours(1),
                                Duration.ZERO,
                                StorageErrorMode.FAIL_CLOSED,
                                CacheableStatuses.parse("2xx"))
                        .withRedactor(CardRedaction.MASK);
        Operation operation = new Operation("a".repeat(64), "f".repeat(64), 1, policy, "http");

        ((Admission.Proceed) engine.admit(operation)).execution().finish(CardRedaction.charged());

        StoredResult stored = store.find("a".repeat(64)).orElseThrow().result();
        String body = new String(stored.body(), StandardCharsets.UTF_8);
        assertThat(body).isEqualTo("{\"card\":\"" + MASKED + "\"}").doesNotContain(CARD);
        assertThat(stored.headers())
                .extracting(StoredHeader::value)
                .noneMatch(value -> value.contains(CARD))
                .contains("/cards/" + MASKED);
    }
}
