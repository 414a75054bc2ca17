package io.idemkit.store.jdbc;

import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * What the PostgreSQL wake-up tests share: how a wake-up is told from a poll. The waiting store
 * instance's poll pauses {@link #PAUSE}, a minute, from its first read; a waiter that returns
 * within {@link #WOKEN_WITHIN}, a quarter of that, was woken by a notification. The bounds are
 * generous for a loaded machine and say nothing of speed, which the benchmark {@code WakeUpLatency}
 * measures.
 */
final class WakeUpTiming {

    static final String FP = "f".repeat(64);
    static final Duration LEASE = Duration.ofMinutes(1);
    static final StoredResult RESULT =
            new StoredResult(201, List.of(), "{\"id\":1}".getBytes(StandardCharsets.UTF_8));

    /** Every pause of the waiting instance's poll, the first too. */
    static final Duration PAUSE = Duration.ofMinutes(1);

    /** The waits: longer than {@link #PAUSE}, so that none ends at its deadline during a test. */
    static final Duration WAIT = PAUSE.multipliedBy(2);

    /** How soon a woken waiter returns: patient on a loaded machine, well under {@link #PAUSE}. */
    static final Duration WOKEN_WITHIN = Duration.ofSeconds(15);

    /** What the tests wait for without proving anything by it: patient on a loaded machine. */
    static final Duration EVENTUALLY = Duration.ofSeconds(15);

    private WakeUpTiming() {}
}
