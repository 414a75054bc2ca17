package io.idemkit.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.metrics.DoubleHistogramBuilder;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The duration histogram on a runtime whose OpenTelemetry API predates bucket advice (1.32). */
class OperationTelemetryBucketsTest {

    @Test
    void apiWithoutBucketAdvice_keepsTheHistogram_withTheDefaultBuckets() {
        DoubleHistogramBuilder old =
                (DoubleHistogramBuilder)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {DoubleHistogramBuilder.class},
                                (proxy, method, args) -> {
                                    if (method.getName()
                                            .equals("setExplicitBucketBoundariesAdvice")) {
                                        // What the JVM throws for a method the runtime's API lacks.
                                        throw new NoSuchMethodError(method.getName());
                                    }
                                    return proxy;
                                });

        assertThat(OperationTelemetry.withBuckets(old)).isSameAs(old);
    }

    @Test
    void apiWithBucketAdvice_getsTheLibrarysBuckets() {
        List<List<Double>> advised = new ArrayList<>();
        DoubleHistogramBuilder current =
                (DoubleHistogramBuilder)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {DoubleHistogramBuilder.class},
                                (proxy, method, args) -> {
                                    if (method.getName()
                                            .equals("setExplicitBucketBoundariesAdvice")) {
                                        @SuppressWarnings("unchecked")
                                        List<Double> buckets = (List<Double>) args[0];
                                        advised.add(buckets);
                                    }
                                    return proxy;
                                });

        OperationTelemetry.withBuckets(current);

        assertThat(advised).hasSize(1);
        assertThat(advised.get(0)).startsWith(0.0005, 0.001).endsWith(60.0);
    }
}
