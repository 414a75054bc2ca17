package io.idemkit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.store.jdbc.JdbcStoreFactory;
import io.idemkit.store.memory.MemoryStoreFactory;
import io.idemkit.store.mongo.MongoStoreFactory;
import io.idemkit.store.sample.SampleStoreFactory;
import io.idemkit.testsupport.CapturedLog;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store is a wing: a factory of a package the library does not know ({@link SampleStoreFactory})
 * is named by {@code idemkit.store}, picked by {@code auto}, offered in the fallback's warning, and
 * its keys are known to the unknown-key check, all through what it declares, as the CDI glue reads
 * the service file's factories. Nothing in {@code config} lists the stores.
 */
class StoreWingSeamTest {

    private final List<StoreFactory> factories =
            List.of(
                    new MongoStoreFactory(),
                    new MemoryStoreFactory(),
                    new JdbcStoreFactory(),
                    new SampleStoreFactory());
    private final CapturedLog log = CapturedLog.of(ConfigReader.class);

    @AfterEach
    void stopListening() {
        log.close();
    }

    /** Reads as the glue does: every factory's keys known, the name checked, the stores' keys. */
    private ConfigValues read(Map<String, String> properties) {
        ConfigValues values =
                new ConfigValues(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(properties, "test", 500))
                                .build(),
                        factories.stream()
                                .flatMap(f -> f.keys().stream())
                                .collect(Collectors.toSet()));
        StoreSelection.checkName(values, factories);
        factories.forEach(f -> f.read(values));
        return values;
    }

    private StoreSelection choose(ConfigValues values) {
        return StoreSelection.choose(
                ConfigReader.read(values).store(),
                factories,
                f -> true,
                values,
                new NoStoreResources());
    }

    @Test
    void theNewStore_isNamedByIdemkitStore_andItsKeysAreKnown() {
        ConfigValues values =
                read(Map.of("idemkit.store", "Sample", SampleStoreFactory.ENDPOINT, "x"));

        StoreSelection selection = choose(values);

        assertThat(selection.factory()).isInstanceOf(SampleStoreFactory.class);
        assertThat(selection.configured()).isTrue();
        assertThat(log.warnings()).as("idemkit.sample.endpoint is a known key").isEmpty();
    }

    @Test
    void auto_picksTheNewStoreByItsConfiguration() {
        StoreSelection selection = choose(read(Map.of(SampleStoreFactory.ENDPOINT, "x")));

        assertThat(selection.factory()).isInstanceOf(SampleStoreFactory.class);
        assertThat(selection.configured()).isFalse();
    }

    @Test
    void auto_fallingBackToMemory_namesHowToChooseEveryStore() {
        StoreSelection selection = choose(read(Map.of()));

        assertThat(selection.factory()).isInstanceOf(MemoryStoreFactory.class);
        assertThat(selection.warnings())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .contains("set idemkit.mongo.uri")
                                        .contains("set idemkit.store=jdbc")
                                        .endsWith("; or set idemkit.sample.endpoint."));
    }

    @Test
    void aNameNoFactoryDeclares_isAConfigurationProblemListingTheNames() {
        ConfigValues values = read(Map.of("idemkit.store", "cassandra"));

        assertThatThrownBy(() -> ConfigReader.read(values))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .containsExactly(
                                                "Invalid idemkit.store=cassandra: must be one of auto,"
                                                        + " mongo, memory, jdbc, sample"));
    }

    @Test
    void aKeyOfNoWing_isStillWarnedAbout() {
        ConfigReader.read(read(Map.of("idemkit.sampel.endpoint", "x")));

        assertThat(log.warnings())
                .singleElement()
                .satisfies(w -> assertThat(w).contains("idemkit.sampel.endpoint"));
    }
}
