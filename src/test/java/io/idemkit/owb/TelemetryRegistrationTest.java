package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.IdempotencyEngine;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.se.SeContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenTelemetry integration's registration on OpenWebBeans (the Weld twin is {@code
 * io.idemkit.cdi.TelemetryWiringTest}): with the API on the class path and an {@code OpenTelemetry}
 * bean, every operation through the interceptor is counted and each store call is a span; without
 * the bean, nothing is wrapped and operations still run.
 */
class TelemetryRegistrationTest {

    private final OwbDeployment deployment = new OwbDeployment();

    @BeforeEach
    void reset() {
        Ledger.reset();
        Sdk.reset();
        deployment.set("idemkit.scope-mode", "single-tenant").set("idemkit.store", "memory");
    }

    @AfterEach
    void undeploy() {
        deployment.close();
    }

    @Test
    void openTelemetryBean_interceptedOperationsAreCountedAndTheirStoreCallsTraced() {
        SeContainer owb = deployment.start(Ledger.class, Sdk.class);
        Ledger ledger = owb.select(Ledger.class).get();

        ledger.pay("otel-1", "acct", 5, "r1");
        ledger.pay("otel-1", "acct", 5, "r2");

        MetricData operations =
                Sdk.metrics.collectAllMetrics().stream()
                        .filter(m -> m.getName().equals("idemkit.operations"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no idemkit.operations metric"));
        assertThat(operations.getLongSumData().getPoints())
                .extracting(
                        p -> p.getAttributes().get(AttributeKey.stringKey("decision")),
                        LongPointData::getValue)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple("new", 1L),
                        org.assertj.core.groups.Tuple.tuple("replayed", 1L));
        assertThat(Sdk.spans.getFinishedSpanItems())
                .extracting(SpanData::getName)
                .contains("idempotency.claim", "idempotency.complete");
        assertThat(Ledger.executions).hasValue(1);
    }

    @Test
    void withoutAnOpenTelemetryBean_operationsRunUnwrapped() {
        SeContainer owb = deployment.start(Ledger.class);
        Ledger ledger = owb.select(Ledger.class).get();

        ledger.pay("plain-1", "acct", 5, "r1");
        ledger.pay("plain-1", "acct", 5, "r2");

        assertThat(Ledger.executions).hasValue(1);
        assertThat(owb.select(IdempotencyEngine.class).get().store().getClass().getSimpleName())
                .isNotEqualTo("TracedStore");
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
}
