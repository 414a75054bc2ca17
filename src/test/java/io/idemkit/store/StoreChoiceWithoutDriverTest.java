package io.idemkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigValues;
import io.idemkit.store.jdbc.JdbcStoreFactory;
import io.idemkit.store.memory.MemoryStoreFactory;
import io.idemkit.store.mongo.MongoStoreFactory;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Which store the configuration gives when the MongoDB driver is absent (C8), on the real
 * factories, with the driver's absence stated rather than staged: the JDBC and in-memory stores are
 * chosen as usual, and a deployment that chooses MongoDB, by name or by its URI, gets a problem
 * that names the missing artifact instead of a fallback to memory.
 */
class StoreChoiceWithoutDriverTest {

    private static final Predicate<StoreFactory> NO_MONGO_DRIVER = f -> !f.name().equals("mongo");

    private final List<StoreFactory> factories =
            List.of(new MongoStoreFactory(), new MemoryStoreFactory(), new JdbcStoreFactory());

    @Test
    void mongoNamed_withoutItsDriver_isAProblemNamingTheArtifact() {
        StoreSelection selection = choose("mongo", Map.of());

        assertThat(selection.factory().name()).isEqualTo("mongo");
        assertThat(selection.problem())
                .hasValueSatisfying(
                        p ->
                                assertThat(p)
                                        .startsWith(
                                                "idemkit.store=mongo, which needs the MongoDB driver")
                                        .contains("org.mongodb:mongodb-driver-sync"));
    }

    @Test
    void autoWithAMongoUri_withoutTheDriver_isAProblem_notAFallbackToMemory() {
        StoreSelection selection =
                choose("auto", Map.of("idemkit.mongo.uri", "mongodb://127.0.0.1:9/"));

        assertThat(selection.problem())
                .hasValueSatisfying(p -> assertThat(p).contains("org.mongodb:mongodb-driver-sync"));
    }

    @Test
    void autoWithoutAMongoUri_withoutTheDriver_isTheMemoryStore() {
        StoreSelection selection = choose("auto", Map.of());

        assertThat(selection.factory().name()).isEqualTo("memory");
        assertThat(selection.problem()).isEmpty();
        assertThat(selection.warnings())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .startsWith(
                                                "idemkit uses the IN-MEMORY store because"
                                                        + " idemkit.store=auto found no other store")
                                        .contains("set idemkit.store=jdbc")
                                        .as("no way that needs the absent driver")
                                        .doesNotContain("mongo"));
    }

    @Test
    void jdbcAndMemoryNamed_withoutTheMongoDriver_areChosenWithoutAProblem() {
        assertThat(choose("jdbc", Map.of()).factory().name()).isEqualTo("jdbc");
        assertThat(choose("jdbc", Map.of()).problem()).isEmpty();
        assertThat(choose("memory", Map.of()).factory().name()).isEqualTo("memory");
        assertThat(choose("memory", Map.of()).problem()).isEmpty();
    }

    @Test
    void theMongoDriver_isThereInThisBuild_soItsProbeFindsIt() {
        StoreDriver driver = new MongoStoreFactory().driver().orElseThrow();

        assertThat(driver.present(getClass().getClassLoader())).isTrue();
        assertThat(
                        new StoreDriver("com.example.NoSuchDriver", "com.example:none", "no driver")
                                .present(getClass().getClassLoader()))
                .isFalse();
    }

    private StoreSelection choose(String name, Map<String, String> keys) {
        ConfigValues values =
                new ConfigValues(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(keys, "test", 500))
                                .build());
        factories.stream().filter(NO_MONGO_DRIVER).forEach(f -> f.read(values));
        return StoreSelection.choose(
                name, factories, NO_MONGO_DRIVER, values, new NoStoreResources());
    }
}
