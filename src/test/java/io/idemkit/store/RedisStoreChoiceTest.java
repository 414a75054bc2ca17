package io.idemkit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigValues;
import io.idemkit.store.jdbc.JdbcStoreFactory;
import io.idemkit.store.memory.MemoryStoreFactory;
import io.idemkit.store.mongo.MongoStoreFactory;
import io.idemkit.store.redis.RedisStoreFactory;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * How the configuration chooses the Redis store (C8), on the real factories: by its URI or nodes
 * under {@code auto}, by name; and, with Jedis absent (stated, not staged), a problem that names
 * the artifact instead of a fallback to memory.
 */
class RedisStoreChoiceTest {

    private static final Predicate<StoreFactory> EVERY_DRIVER = f -> true;
    private static final Predicate<StoreFactory> NO_JEDIS = f -> !f.name().equals("redis");

    private final List<StoreFactory> factories =
            List.of(
                    new MongoStoreFactory(),
                    new MemoryStoreFactory(),
                    new JdbcStoreFactory(),
                    new RedisStoreFactory());

    @Test
    void autoWithARedisUri_orNodes_isTheRedisStore() {
        assertThat(choose("auto", Map.of("idemkit.redis.uri", "redis://cache:6379"), EVERY_DRIVER))
                .satisfies(s -> assertThat(s.factory().name()).isEqualTo("redis"))
                .satisfies(s -> assertThat(s.problem()).isEmpty());
        assertThat(choose("auto", Map.of("idemkit.redis.nodes", "a:7000,b:7000"), EVERY_DRIVER))
                .satisfies(s -> assertThat(s.factory().name()).isEqualTo("redis"));
    }

    @Test
    void autoWithBothAMongoAndARedisUri_usesMongo_andWarnsThatRedisIsNotUsed() {
        StoreSelection selection =
                choose(
                        "auto",
                        Map.of(
                                "idemkit.mongo.uri", "mongodb://db:27017",
                                "idemkit.redis.uri", "redis://cache:6379"),
                        EVERY_DRIVER);

        assertThat(selection.factory().name()).isEqualTo("mongo");
        assertThat(selection.warnings())
                .containsExactly(
                        "idemkit.store=auto found more than one store configured and uses the"
                                + " mongo store, the first it considers; the configuration of"
                                + " redis is not used. Set idemkit.store to the store you mean.");
        assertThat(
                        choose(
                                        "redis",
                                        Map.of(
                                                "idemkit.mongo.uri", "mongodb://db:27017",
                                                "idemkit.redis.uri", "redis://cache:6379"),
                                        EVERY_DRIVER)
                                .warnings())
                .as("named, nothing to warn about")
                .isEmpty();
        assertThat(
                        choose(
                                        "auto",
                                        Map.of("idemkit.redis.uri", "redis://cache:6379"),
                                        EVERY_DRIVER)
                                .warnings())
                .isEmpty();
    }

    @Test
    void redisNamed_withoutAUriOrNodes_isAProblemSayingWhichToSet() {
        StoreSelection selection = choose("redis", Map.of(), EVERY_DRIVER);

        assertThat(selection.problem())
                .hasValue(
                        "idemkit.store=redis needs idemkit.redis.uri (one server) or"
                                + " idemkit.redis.nodes (a Redis Cluster); neither is set.");
    }

    @Test
    void autoWithARedisUri_withoutJedis_isAProblemNamingTheArtifact_notAFallbackToMemory() {
        StoreSelection selection =
                choose("auto", Map.of("idemkit.redis.uri", "redis://cache:6379"), NO_JEDIS);

        assertThat(selection.factory().name()).isEqualTo("redis");
        assertThat(selection.problem())
                .hasValueSatisfying(
                        p ->
                                assertThat(p)
                                        .startsWith(
                                                "idemkit.store=auto picks the redis store by its"
                                                        + " configuration, which needs Jedis")
                                        .contains("redis.clients:jedis"));
    }

    @Test
    void theFallbackWarning_offersRedis_onlyWhenJedisIsThere() {
        assertThat(choose("auto", Map.of(), EVERY_DRIVER).warnings())
                .singleElement()
                .satisfies(w -> assertThat(w).contains("set idemkit.redis.uri"));
        assertThat(choose("auto", Map.of(), NO_JEDIS).warnings())
                .singleElement()
                .satisfies(w -> assertThat(w).doesNotContain("redis"));
    }

    private StoreSelection choose(
            String name, Map<String, String> keys, Predicate<StoreFactory> usable) {
        ConfigValues values =
                new ConfigValues(
                        new SmallRyeConfigBuilder()
                                .withSources(new PropertiesConfigSource(keys, "test", 500))
                                .build());
        factories.stream().filter(usable).forEach(f -> f.read(values));
        return StoreSelection.choose(name, factories, usable, values, new NoStoreResources());
    }
}
