package io.idemkit.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.UnifiedJedis;

/**
 * What the Redis store makes of values it did not write, or that were damaged (C3): every one is
 * absent to a read and taken over by a claim, which says it recovered; and what it wrote comes back
 * byte for byte, whatever the headers hold, up to the largest body the library stores.
 */
class RedisCorruptRecordTest {

    private static final String FP = "f".repeat(64);
    private final UnifiedJedis client = RedisServerStoreContractTest.Servers.sharedClient();
    private String prefix;
    private RedisIdempotencyStore store;

    @BeforeEach
    void open() {
        prefix = "c" + UUID.randomUUID().toString().substring(0, 8) + ":";
        store =
                new RedisIdempotencyStore(
                        client,
                        RedisStoreSettings.forUri("redis://127.0.0.1:1").withKeyPrefix(prefix),
                        Clock.systemUTC());
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** A valid live claim's fields, as the store writes them. */
    private Map<String, String> liveClaim() {
        long now = store.now().toEpochMilli();
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("state", "CLAIMED");
        fields.put("fp", FP);
        fields.put("fpv", "1");
        fields.put("token", "0123456789abcdef0123456789abcdef");
        fields.put("claimed_at", Long.toString(now));
        fields.put("lease_until", Long.toString(now + 600_000));
        return fields;
    }

    private Map<String, String> liveCompletion() {
        Map<String, String> fields = liveClaim();
        fields.put("state", "COMPLETED");
        fields.put("completed_at", fields.get("claimed_at"));
        fields.put("expires_at", fields.get("lease_until"));
        fields.put("status", "201");
        fields.put("headers", "8:Location4:/r/1");
        fields.put("body", "{}");
        return fields;
    }

    static Stream<Arguments> unreadable() {
        return Stream.of(
                plant("a string", (t, key) -> t.client.set(key, "garbage")),
                plant("a list", (t, key) -> t.client.rpush(key, "a", "b")),
                changed("no token", f -> f.remove("token")),
                changed("a blank token", f -> f.put("token", "  ")),
                changed("another state", f -> f.put("state", "DONE")),
                changed("fingerprint version 0", f -> f.put("fpv", "0")),
                changed("a fingerprint version that is no number", f -> f.put("fpv", "one")),
                changed("a lease that is no number", f -> f.put("lease_until", "soon")),
                completedChanged("no body", f -> f.remove("body")),
                completedChanged("status 700", f -> f.put("status", "700")),
                completedChanged("headers cut short", f -> f.put("headers", "8:Loc")),
                completedChanged("a header name without its value", f -> f.put("headers", "1:a")),
                completedChanged("no expiry", f -> f.remove("expires_at")));
    }

    private static Arguments plant(String what, BiConsumer<RedisCorruptRecordTest, String> how) {
        return Arguments.of(what, how);
    }

    private static Arguments changed(
            String what, java.util.function.Consumer<Map<String, String>> change) {
        return plant(
                what,
                (t, key) -> {
                    Map<String, String> fields = t.liveClaim();
                    change.accept(fields);
                    t.client.hset(key, fields);
                });
    }

    private static Arguments completedChanged(
            String what, java.util.function.Consumer<Map<String, String>> change) {
        return plant(
                what,
                (t, key) -> {
                    Map<String, String> fields = t.liveCompletion();
                    change.accept(fields);
                    t.client.hset(key, fields);
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadable")
    void anUnreadableValue_isAbsentAndTakenOverByAClaimThatSaysSo(
            String what, BiConsumer<RedisCorruptRecordTest, String> plant) throws Exception {
        String key = "k" + UUID.randomUUID();
        plant.accept(this, prefix + key);

        assertThat(store.find(key)).as(what).isEmpty();
        assertThat(store.awaitCompletion(key, Duration.ZERO)).as(what).isEmpty();
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofSeconds(30));

        assertThat(claim.status()).as(what).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).as(what).isTrue();
        assertThat(store.complete(key, claim.token(), result(), Duration.ofMinutes(1))).isTrue();
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(result());
    }

    @Test
    void aValidRecordPlantedRaw_isReadAsIs_soTheLayoutIsTheDocumentedOne() {
        String key = "k" + UUID.randomUUID();
        client.hset(prefix + key, liveCompletion());

        ClaimResult claim = store.claim(key, FP, 1, Duration.ofSeconds(30));

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(claim.record().result())
                .isEqualTo(
                        new StoredResult(
                                201,
                                List.of(new StoredHeader("Location", "/r/1")),
                                "{}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void headersOfAnyText_comeBackExactly() {
        String key = "k" + UUID.randomUUID();
        List<StoredHeader> headers =
                List.of(
                        new StoredHeader("X-Colons", "12:34:56"),
                        new StoredHeader("X-Digits-3", "3:abc"),
                        new StoredHeader("X-Empty", ""),
                        new StoredHeader("X-Unicode", "grüße, 東京, 🦀"),
                        new StoredHeader("X-Empty", "again"));
        byte[] body = new byte[256 * 1024 + 3];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) (i * 31);
        }
        StoredResult result = new StoredResult(200, headers, body);
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofSeconds(30));

        assertThat(store.complete(key, claim.token(), result, Duration.ofMinutes(1))).isTrue();

        assertThat(store.find(key).orElseThrow().result()).isEqualTo(result);
        assertThat(store.claim(key, FP, 1, Duration.ofSeconds(30)).record().result())
                .isEqualTo(result);
    }

    /** The largest body {@code idemkit.max-body-bytes} allows, 15 MiB, every byte value in it. */
    @Test
    void theLargestStorableBody_comesBackByteForByte() {
        String key = "k" + UUID.randomUUID();
        byte[] body = new byte[15 * 1024 * 1024];
        new java.util.Random(7).nextBytes(body);
        StoredResult result = new StoredResult(200, List.of(), body);
        ClaimResult claim = store.claim(key, FP, 1, Duration.ofSeconds(30));

        assertThat(store.complete(key, claim.token(), result, Duration.ofMinutes(1))).isTrue();

        assertThat(store.claim(key, FP, 1, Duration.ofSeconds(30)).record().result())
                .isEqualTo(result);
        store.delete(key);
    }

    @Test
    void anAttemptCountThatIsNoNumber_startsOver() {
        String attempts = "a" + UUID.randomUUID();
        client.set(prefix + attempts, "many");

        assertThat(store.countAttempt(attempts, Duration.ofMinutes(1))).isEqualTo(1);
        assertThat(store.countAttempt(attempts, Duration.ofMinutes(1))).isEqualTo(2);
    }

    private static StoredResult result() {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/2")),
                "ok".getBytes(StandardCharsets.UTF_8));
    }
}
