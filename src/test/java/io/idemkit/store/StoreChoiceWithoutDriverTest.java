package io.idemkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigValues;
import io.idemkit.config.StoreKind;
import io.idemkit.store.jdbc.JdbcStoreFactory;
import io.idemkit.store.memory.MemoryStoreFactory;
import io.idemkit.store.mongo.MongoStoreFactory;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Which store the configuration gives when the MongoDB driver is absent (C8), on the real
 * factories, with the driver's absence stated rather than staged: the JDBC and in-memory stores are
 * chosen as usual, and a deployment that chooses MongoDB, by name or by its URI, gets a problem
 * that names the missing artifact instead of a fallback to memory.
 */
class StoreChoiceWithoutDriverTest {

    private static final Predicate<StoreFactory> NO_MONGO_DRIVER = f -> f.kind() != StoreKind.MONGO;

    private final List<StoreFactory> factories =
            List.of(new MongoStoreFactory(), new MemoryStoreFactory(), new JdbcStoreFactory());

    @Test
    void mongoNamed_withoutItsDriver_isAProblemNamingTheArtifact() {
        StoreSelection selection = choose(StoreKind.MONGO, Map.of());

        assertThat(selection.factory().kind()).isEqualTo(StoreKind.MONGO);
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
                choose(StoreKind.AUTO, Map.of("idemkit.mongo.uri", "mongodb://127.0.0.1:9/"));

        assertThat(selection.problem())
                .hasValueSatisfying(p -> assertThat(p).contains("org.mongodb:mongodb-driver-sync"));
    }

    @Test
    void autoWithoutAMongoUri_withoutTheDriver_isTheMemoryStore() {
        StoreSelection selection = choose(StoreKind.AUTO, Map.of());

        assertThat(selection.factory().kind()).isEqualTo(StoreKind.MEMORY);
        assertThat(selection.problem()).isEmpty();
        assertThat(selection.warnings()).isEmpty();
    }

    @Test
    void jdbcAndMemoryNamed_withoutTheMongoDriver_areChosenWithoutAProblem() {
        assertThat(choose(StoreKind.JDBC, Map.of()).factory().kind()).isEqualTo(StoreKind.JDBC);
        assertThat(choose(StoreKind.JDBC, Map.of()).problem()).isEmpty();
        assertThat(choose(StoreKind.MEMORY, Map.of()).factory().kind()).isEqualTo(StoreKind.MEMORY);
        assertThat(choose(StoreKind.MEMORY, Map.of()).problem()).isEmpty();
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

    private StoreSelection choose(StoreKind kind, Map<String, String> keys) {
        ConfigValues values =
                new ConfigValues(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(keys, "test", 500))
                                .build());
        factories.stream().filter(NO_MONGO_DRIVER).forEach(f -> f.read(values));
        return StoreSelection.choose(kind, factories, NO_MONGO_DRIVER, values, new NoBeans());
    }

    /** A container without beans of the stores' types and without a managed scheduler. */
    private static final class NoBeans implements StoreResources {

        @Override
        public Count count(String typeName) {
            return Count.NONE;
        }

        @Override
        public Object reference(String typeName) {
            throw new IllegalStateException("no " + typeName);
        }

        @Override
        public Count resolvable(Class<?> type) {
            return Count.NONE;
        }

        @Override
        public <T> T resolve(Class<T> type) {
            throw new IllegalStateException("no " + type);
        }

        @Override
        public Optional<ScheduledExecutorService> managedScheduler() {
            return Optional.empty();
        }

        @Override
        public String managedSchedulerName() {
            return "none";
        }
    }
}
