package io.idemkit.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyPayloadMismatchException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.Admission;
import io.idemkit.core.Execution;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.spi.StoredResult;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.util.Collection;
import java.util.List;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Metrics and traces on Weld with an in-memory OpenTelemetry SDK: what a few operations record, fed
 * from the one event per operation (C4.8), and never the raw key (C4.9).
 */
class TelemetryWiringTest {

    private static final String KEY = "b".repeat(64);

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
        Sdk.reset();
    }

    /** The application's OpenTelemetry, as MicroProfile Telemetry would provide it. */
    @ApplicationScoped
    public static class Sdk {
        static InMemoryMetricReader metrics = InMemoryMetricReader.create();
        static InMemorySpanExporter spans = InMemorySpanExporter.create();

        static void reset() {
            metrics = InMemoryMetricReader.create();
            spans = InMemorySpanExporter.create();
        }

        @Produces
        @ApplicationScoped
        OpenTelemetry openTelemetry() {
            return OpenTelemetrySdk.builder()
                    .setMeterProvider(
                            SdkMeterProvider.builder().registerMetricReader(metrics).build())
                    .setTracerProvider(
                            SdkTracerProvider.builder()
                                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                                    .build())
                    .build();
        }
    }

    private Operation operation(WeldContainer weld, String fingerprint) {
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        return new Operation(KEY, fingerprint, 1, config.defaults(), "http");
    }

    @Test
    void newReplayedAndMismatch_areCountedWithDecisionSurfaceAndStore() {
        WeldContainer weld = deployment.start(Sdk.class);
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();

        ((Admission.Proceed) engine.admit(operation(weld, "fp")))
                .execution()
                .finish(new StoredResult(201, List.of(), new byte[] {1}));
        engine.admit(operation(weld, "fp"));
        assertThatThrownBy(() -> engine.admit(operation(weld, "other")))
                .isInstanceOf(IdempotencyPayloadMismatchException.class);

        Collection<MetricData> collected = Sdk.metrics.collectAllMetrics();
        MetricData counter = metric(collected, "idemkit.operations");
        assertThat(counter.getUnit()).isEqualTo("{operation}");
        assertThat(counter.getLongSumData().getPoints())
                .extracting(LongPointData::getAttributes, LongPointData::getValue)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(series("new"), 1L),
                        org.assertj.core.groups.Tuple.tuple(series("replayed"), 1L),
                        org.assertj.core.groups.Tuple.tuple(series("payload_mismatch"), 1L));
        MetricData histogram = metric(collected, "idemkit.operation.duration");
        assertThat(histogram.getUnit()).isEqualTo("s");
        assertThat(histogram.getHistogramData().getPoints())
                .extracting(HistogramPointData::getAttributes, HistogramPointData::getCount)
                .contains(org.assertj.core.groups.Tuple.tuple(series("new"), 1L));
        // Seconds, not nanoseconds or milliseconds: an in-memory operation takes well under 10 s.
        assertThat(histogram.getHistogramData().getPoints())
                .allSatisfy(p -> assertThat(p.getMax()).isBetween(0.0, 10.0));
    }

    @Test
    void aGivenUpMessage_isCountedAsGivenUp_notAsNew() {
        // C11.3, C4.8: the metric a poison-message alert watches.
        WeldContainer weld = deployment.start(Sdk.class);
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        Operation message = new Operation(KEY, "fp", 1, config.defaults(), "message");

        Execution execution = ((Admission.Proceed) engine.admit(message)).execution();
        execution.markGivenUp();
        execution.finish(new StoredResult(200, List.of(), new byte[] {1}));

        assertThat(
                        metric(Sdk.metrics.collectAllMetrics(), "idemkit.operations")
                                .getLongSumData()
                                .getPoints())
                .extracting(LongPointData::getAttributes, LongPointData::getValue)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                Attributes.of(
                                        AttributeKey.stringKey("decision"),
                                        "given_up",
                                        AttributeKey.stringKey("surface"),
                                        "message",
                                        AttributeKey.stringKey("store"),
                                        "memory"),
                                1L));
    }

    @Test
    void operationUnderASpan_setsDecisionAndEffectiveKey_andEachStoreCallIsAChildSpan() {
        WeldContainer weld = deployment.start(Sdk.class);
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();
        OpenTelemetry otel = weld.select(OpenTelemetry.class).get();

        Span request = otel.getTracer("test").spanBuilder("POST /orders").startSpan();
        try (Scope ignored = request.makeCurrent()) {
            ((Admission.Proceed) engine.admit(operation(weld, "fp")))
                    .execution()
                    .finish(new StoredResult(201, List.of(), new byte[] {1}));
        } finally {
            request.end();
        }

        List<SpanData> spans = Sdk.spans.getFinishedSpanItems();
        SpanData server = span(spans, "POST /orders");
        assertThat(server.getAttributes().get(AttributeKey.stringKey("idempotency.decision")))
                .isEqualTo("new");
        assertThat(server.getAttributes().get(AttributeKey.stringKey("idempotency.effective_key")))
                .isEqualTo(KEY);
        assertThat(server.getAttributes().get(AttributeKey.stringKey("idempotency.backend")))
                .isEqualTo("memory");
        assertThat(
                        server.getAttributes()
                                .get(AttributeKey.longKey("idempotency.fingerprint_version")))
                .isEqualTo(1L);
        assertThat(server.getAttributes().get(AttributeKey.booleanKey("idempotency.cache_hit")))
                .isFalse();
        SpanData claim = span(spans, "idempotency.claim");
        SpanData complete = span(spans, "idempotency.complete");
        assertThat(claim.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(complete.getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(claim.getAttributes().get(AttributeKey.stringKey("idempotency.claim_status")))
                .isEqualTo("new");
        assertThat(claim.getAttributes().get(AttributeKey.stringKey("idempotency.effective_key")))
                .isEqualTo(KEY);
    }

    @Test
    void storeFailure_marksTheStoreSpanAsAnError_andCountsTheKindOfFailure() {
        deployment.set("idemkit.store", "memory").set("idemkit.memory.max-size", "1");
        WeldContainer weld = deployment.start(Sdk.class);
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        engine.admit(new Operation("c".repeat(64), "fp", 1, config.defaults(), "http"));

        assertThatThrownBy(() -> engine.admit(operation(weld, "fp")))
                .isInstanceOf(IdempotencyStorageException.class);

        SpanData failed =
                Sdk.spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getName().equals("idempotency.claim"))
                        .filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR)
                        .findFirst()
                        .orElseThrow();
        assertThat(failed.getAttributes().get(AttributeKey.stringKey("idempotency.effective_key")))
                .isEqualTo(KEY);
        assertThat(failed.getEvents())
                .anySatisfy(e -> assertThat(e.getName()).isEqualTo("exception"));
        assertThat(
                        metric(Sdk.metrics.collectAllMetrics(), "idemkit.operations")
                                .getLongSumData()
                                .getPoints())
                .extracting(LongPointData::getAttributes)
                .contains(
                        series("storage_error").toBuilder()
                                .put("storage_failure", "refused")
                                .build());
    }

    @Test
    void withoutAnOpenTelemetryBean_operationsRunAndNothingIsRecorded() {
        runsWithTheStoreUnwrapped(deployment.start());
    }

    /** What a runtime with its SDK off (MicroProfile Telemetry's default) provides. */
    @ApplicationScoped
    public static class SdkOff {
        @Produces
        @ApplicationScoped
        OpenTelemetry openTelemetry() {
            return OpenTelemetry.noop();
        }
    }

    @Test
    void withTheSdkOff_theStoreIsNotWrapped_andOperationsRun() {
        runsWithTheStoreUnwrapped(deployment.start(SdkOff.class));
    }

    /** An operation runs and replays, and the store was not put in spans. */
    private void runsWithTheStoreUnwrapped(WeldContainer weld) {
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();

        ((Admission.Proceed) engine.admit(operation(weld, "fp")))
                .execution()
                .finish(new StoredResult(201, List.of(), new byte[] {1}));

        assertThat(engine.admit(operation(weld, "fp"))).isInstanceOf(Admission.Replay.class);
        assertThat(engine.store().getClass().getSimpleName()).isNotEqualTo("TracedStore");
    }

    @Test
    void noopInstruments_areToldFromAnSdksOnes() {
        OpenTelemetry sdk = new Sdk().openTelemetry();

        assertThat(Telemetry.isNoop(OpenTelemetry.noop().getTracer(Telemetry.SCOPE))).isTrue();
        assertThat(Telemetry.isNoop(OpenTelemetry.noop().getMeter(Telemetry.SCOPE))).isTrue();
        assertThat(Telemetry.isNoop(sdk.getTracer(Telemetry.SCOPE))).isFalse();
        assertThat(Telemetry.isNoop(sdk.getMeter(Telemetry.SCOPE))).isFalse();
    }

    private static Attributes series(String decision) {
        return Attributes.of(
                AttributeKey.stringKey("decision"),
                decision,
                AttributeKey.stringKey("surface"),
                "http",
                AttributeKey.stringKey("store"),
                "memory");
    }

    private static MetricData metric(Collection<MetricData> collected, String name) {
        return collected.stream()
                .filter(m -> m.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + collected));
    }

    private static SpanData span(List<SpanData> spans, String name) {
        return spans.stream()
                .filter(s -> s.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no span " + name + " in " + spans));
    }
}
