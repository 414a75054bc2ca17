package io.idemkit.telemetry;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import jakarta.enterprise.inject.Instance;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;

/**
 * Turns the events of every operation into OpenTelemetry signals:
 *
 * <ul>
 *   <li>the counter {@value #OPERATIONS} and the histogram {@value #DURATION} (seconds), both with
 *       the attributes {@code decision}, {@code surface} and {@code store}, and for {@code
 *       storage_error}, {@code ran_unprotected} and {@code complete_failed} also {@code
 *       storage_failure} ({@code unreachable}, {@code write_not_confirmed}, {@code refused} or
 *       {@code failed}); an operation that waited counts an {@code in_flight_wait} as well as its
 *       terminal decision;
 *   <li>on the current span, when there is one (the server span of MicroProfile Telemetry), the
 *       attributes of the reference's span shape: {@code idempotency.decision}, {@code
 *       idempotency.backend}, {@code idempotency.fingerprint_version}, {@code
 *       idempotency.effective_key} (the SHA-256, never the raw key), {@code idempotency.cache_hit}
 *       and {@code idempotency.surface}, for a store failure {@code idempotency.storage_failure},
 *       and after a wait {@code idempotency.wait_duration} (seconds); the terminal decision is the
 *       one the span keeps.
 * </ul>
 *
 * Not a bean: when the OpenTelemetry API is visible, the extension adds a synthetic observer method
 * of {@link IdempotencyEvent} that hands each event to one instance, created at the first event.
 * The event is synchronous, so the current span is the operation's own.
 */
public class OperationTelemetry {

    /** The counter of operations. */
    public static final String OPERATIONS = "idemkit.operations";

    /** The histogram of operation latency, in seconds. */
    public static final String DURATION = "idemkit.operation.duration";

    static final AttributeKey<String> DECISION = AttributeKey.stringKey("decision");
    static final AttributeKey<String> SURFACE = AttributeKey.stringKey("surface");
    static final AttributeKey<String> STORE = AttributeKey.stringKey("store");
    static final AttributeKey<String> STORAGE_FAILURE = AttributeKey.stringKey("storage_failure");
    static final AttributeKey<String> SPAN_STORAGE_FAILURE =
            AttributeKey.stringKey("idempotency.storage_failure");

    static final AttributeKey<String> SPAN_DECISION =
            AttributeKey.stringKey("idempotency.decision");
    static final AttributeKey<String> SPAN_BACKEND = AttributeKey.stringKey("idempotency.backend");
    static final AttributeKey<Long> SPAN_FINGERPRINT_VERSION =
            AttributeKey.longKey("idempotency.fingerprint_version");
    static final AttributeKey<String> SPAN_EFFECTIVE_KEY =
            AttributeKey.stringKey("idempotency.effective_key");
    static final AttributeKey<Boolean> SPAN_CACHE_HIT =
            AttributeKey.booleanKey("idempotency.cache_hit");
    static final AttributeKey<String> SPAN_SURFACE = AttributeKey.stringKey("idempotency.surface");
    static final AttributeKey<Double> SPAN_WAIT_DURATION =
            AttributeKey.doubleKey("idempotency.wait_duration");

    /** From a fast replay (about a millisecond) to a long operation's heartbeat-kept lease. */
    private static final List<Double> BUCKETS =
            List.of(
                    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                    10.0, 30.0, 60.0);

    private final LongCounter operations;
    private final DoubleHistogram duration;

    private static final System.Logger LOG = System.getLogger(OperationTelemetry.class.getName());

    /**
     * @param telemetry the application's (or the runtime's) OpenTelemetry bean, if there is one
     */
    public OperationTelemetry(Instance<OpenTelemetry> telemetry) {
        Meter meter =
                Telemetry.resolve(telemetry)
                        .map(t -> t.getMeter(Telemetry.SCOPE))
                        .filter(m -> !Telemetry.isNoop(m))
                        .orElse(null);
        if (meter == null) {
            // No instruments: each event would build attributes for a meter that records nothing.
            operations = null;
            duration = null;
            return;
        }
        operations =
                meter.counterBuilder(OPERATIONS)
                        .setDescription(
                                "Idempotent operations, by decision (new, replayed, conflict, ...)")
                        .setUnit("{operation}")
                        .build();
        DoubleHistogramBuilder histogram =
                meter.histogramBuilder(DURATION)
                        .setDescription(
                                "Time from admission to the decision, including the operation when"
                                        + " it ran")
                        .setUnit("s");
        duration = withBuckets(histogram).build();
    }

    /**
     * The bucket advice is in the API since OpenTelemetry 1.32; a runtime may bring an older API
     * (Payara Micro 6.2025.10 exports 1.29.0), where the call fails with {@link NoSuchMethodError}.
     * Then the histogram keeps the SDK's default buckets, and one WARNING says so.
     */
    static DoubleHistogramBuilder withBuckets(DoubleHistogramBuilder histogram) {
        try {
            return histogram.setExplicitBucketBoundariesAdvice(BUCKETS);
        } catch (NoSuchMethodError e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit: this runtime's OpenTelemetry API is older than 1.32 and takes no"
                            + " bucket advice; "
                            + DURATION
                            + " uses the SDK's default buckets, too coarse for fast replays."
                            + " Configure a View for it in the SDK, or use a newer runtime.");
            return histogram;
        }
    }

    /**
     * @param event one operation's outcome
     */
    public void record(IdempotencyEvent event) {
        String decision = name(event.decision());
        if (operations != null) {
            Attributes attributes =
                    event.storageFailure() == null
                            ? Attributes.of(
                                    DECISION,
                                    decision,
                                    SURFACE,
                                    event.surface(),
                                    STORE,
                                    event.store())
                            : Attributes.of(
                                    DECISION,
                                    decision,
                                    SURFACE,
                                    event.surface(),
                                    STORE,
                                    event.store(),
                                    STORAGE_FAILURE,
                                    event.storageFailure().attributeValue());
            operations.add(1, attributes);
            duration.record(event.latency().toNanos() / 1e9, attributes);
        }
        Span span = Span.current();
        if (span.getSpanContext().isValid() && span.isRecording()) {
            span.setAttribute(SPAN_DECISION, decision);
            span.setAttribute(SPAN_BACKEND, event.store());
            span.setAttribute(SPAN_FINGERPRINT_VERSION, (long) event.fingerprintVersion());
            span.setAttribute(SPAN_EFFECTIVE_KEY, event.effectiveKey());
            span.setAttribute(SPAN_CACHE_HIT, event.decision() == Decision.REPLAYED);
            span.setAttribute(SPAN_SURFACE, event.surface());
            if (event.storageFailure() != null) {
                span.setAttribute(SPAN_STORAGE_FAILURE, event.storageFailure().attributeValue());
            }
            if (!event.waitDuration().isZero()) {
                span.setAttribute(SPAN_WAIT_DURATION, event.waitDuration().toNanos() / 1e9);
            }
        }
    }

    /** The language-neutral name: {@code new}, {@code replayed}, {@code lease_reclaimed}, ... */
    static String name(Decision decision) {
        return decision.name().toLowerCase(Locale.ROOT);
    }
}
