package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The in-memory store's wing reads its own keys and checks them when it is the store used. */
class MemoryStoreSettingsTest {

    private static ConfigValues values(Map<String, String> properties) {
        return new ConfigValues(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build());
    }

    /** Reads as the extension does: the factory's keys, then the engine's, then the opening. */
    private static List<String> openingProblems(Map<String, String> properties) {
        ConfigValues values = values(properties);
        MemoryStoreFactory factory = new MemoryStoreFactory();
        factory.read(values);
        IdemkitConfig config = ConfigReader.read(values);
        return factory.open(null, config);
    }

    @Test
    void noKeys_giveTheDocumentedDefaults() {
        assertThat(MemoryStoreSettings.read(values(Map.of())))
                .isEqualTo(
                        new MemoryStoreSettings(10_000, 64L * 1024 * 1024, Duration.ofSeconds(60)));
    }

    @Test
    void theKeys_areReadByTheWing() {
        MemoryStoreFactory factory = new MemoryStoreFactory();
        factory.read(
                values(
                        Map.of(
                                "idemkit.memory.max-size", "5",
                                "idemkit.memory.max-bytes", "4096",
                                "idemkit.memory.sweep-interval", "2s")));

        assertThat(factory.settings())
                .isEqualTo(new MemoryStoreSettings(5, 4096, Duration.ofSeconds(2)));
        assertThat(factory.keys())
                .containsExactlyInAnyOrder(
                        "idemkit.memory.max-size",
                        "idemkit.memory.max-bytes",
                        "idemkit.memory.sweep-interval");
    }

    /** A result the budget cannot hold would be evicted as soon as it is stored (C10.1). */
    @Test
    void aByteBudgetBelowTheLargestStoredBody_failsTheDeploymentThatUsesTheStore() {
        assertThat(
                        openingProblems(
                                Map.of(
                                        "idemkit.max-body-bytes", "2048",
                                        "idemkit.memory.max-bytes", "2047")))
                .containsExactly(
                        "Invalid idemkit.memory.max-bytes=2047: must be at least"
                                + " idemkit.max-body-bytes (2048), or a result of that size could"
                                + " not be kept");
        assertThat(
                        openingProblems(
                                Map.of(
                                        "idemkit.max-body-bytes", "2048",
                                        "idemkit.memory.max-bytes", "2048")))
                .isEmpty();
    }
}
