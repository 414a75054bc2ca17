package io.idemkit.store.redis;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.testkit.IdempotencyStoreContract;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import redis.clients.jedis.UnifiedJedis;

/**
 * The store contract suite on a real Redis server: each test on a key prefix of its own, so that
 * the tests of a class share one server and one client. Records are planted raw, field by field, as
 * another node's store (or something else) would have written them.
 */
abstract class RedisStoreContract extends IdempotencyStoreContract {

    private RedisIdempotencyStore store;
    private String prefix;

    /**
     * @return the client of the server or cluster under test, shared by the tests of the class
     */
    protected abstract UnifiedJedis client();

    // jqwik runs the contract's random-argument property and ignores JUnit's lifecycle: the same
    // set-up and tear-down run around it too.
    @BeforeEach
    @BeforeProperty
    void openStore() {
        prefix = "t" + UUID.randomUUID().toString().substring(0, 8) + ":";
        store =
                new RedisIdempotencyStore(
                        client(),
                        RedisStoreSettings.forUri("redis://127.0.0.1:6379").withKeyPrefix(prefix),
                        Clock.systemUTC());
    }

    @AfterEach
    @AfterProperty
    void closeStore() {
        store.close();
    }

    @Override
    protected IdempotencyStore store() {
        return store;
    }

    @Override
    protected void elapse(Duration amount) {
        Instant target = store.now().plus(amount);
        Awaitility.await()
                .atMost(amount.plusSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> !store.now().isBefore(target));
    }

    /** Redis expires records itself: there is no purge on demand. */
    @Override
    protected boolean purgesOnDemand() {
        return false;
    }

    /** A hash whose state is no state, beside a valid-looking lease: unreadable. */
    @Override
    protected void plantUnreadableRecord(String key) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("state", "42");
        fields.put("fp", "f".repeat(64));
        fields.put("fpv", "1");
        fields.put("token", "0".repeat(32));
        fields.put("claimed_at", Long.toString(store.now().toEpochMilli()));
        fields.put("lease_until", Long.toString(store.now().plusSeconds(600).toEpochMilli()));
        client().hset(prefix + key, fields);
    }

    /** Writes the record's fields as they are, its version, token and times included. */
    @Override
    protected IdempotencyRecord plantRecord(IdempotencyRecord record) {
        byte[] key = (prefix + record.key()).getBytes(StandardCharsets.UTF_8);
        Map<byte[], byte[]> fields = new LinkedHashMap<>();
        put(fields, "state", record.state().name());
        put(fields, "fp", record.fingerprint());
        put(fields, "fpv", Integer.toString(record.fingerprintVersion()));
        put(fields, "token", record.token().value());
        put(fields, "claimed_at", Long.toString(record.claimedAt().toEpochMilli()));
        put(fields, "lease_until", Long.toString(record.leaseUntil().toEpochMilli()));
        if (record.state() == RecordState.COMPLETED) {
            put(fields, "completed_at", Long.toString(record.completedAt().toEpochMilli()));
            put(fields, "expires_at", Long.toString(record.expiresAt().toEpochMilli()));
            put(fields, "status", Integer.toString(record.result().status()));
            fields.put(
                    "headers".getBytes(StandardCharsets.UTF_8),
                    RecordCodec.headers(record.result().headers()));
            fields.put("body".getBytes(StandardCharsets.UTF_8), record.result().body());
        }
        client().hset(key, fields);
        return record;
    }

    private static void put(Map<byte[], byte[]> fields, String name, String value) {
        fields.put(name.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @return the key prefix of the current test's store
     */
    protected String prefix() {
        return prefix;
    }
}
