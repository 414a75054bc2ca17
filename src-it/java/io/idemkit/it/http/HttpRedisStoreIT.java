package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.http.HttpJdbcScenarios.ServerToKill;
import io.idemkit.it.http.app.ResourcesResource;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.store.redis.RedisIdempotencyStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/**
 * The HTTP scenarios on the Redis store (C3, C6), deployed on the runtime's shared server, with a
 * real {@code redis-server} outside it ({@link ItRedis}): Jedis and its dependencies ship in the
 * WAR's {@code WEB-INF/lib} ({@link LibraryJar#addRedisClient}), as an application that chooses the
 * store ships them. What only a store outside the server can show is here too: a corrupt record
 * planted raw in Redis, and the reference's crash-recovery-lease-expiry with a real crash: a second
 * server of the same runtime, running the same application on the same Redis, is killed (SIGKILL)
 * mid-request, and the client's retry lands on the surviving server, which answers it in progress
 * while the dead claim's lease holds and runs it once after. That server starts in the background
 * at deployment, beside the other scenarios.
 *
 * <p>Not on Payara Micro, for CI time only: there Arquillian starts a Payara Micro for the class
 * and the crash test another, and the class took 28 s (all passed, 2026-12-07); lift the runtime
 * restriction to run it there.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {LIBERTY, WILDFLY},
        because =
                "CI time: Payara Micro starts a server for each IT class; the Redis store runs"
                        + " these on Open Liberty and WildFly, and Payara Micro runs the same"
                        + " vectors on PostgreSQL and MongoDB")
class HttpRedisStoreIT extends HttpScenarios {

    /** The WAR's name, and so the application's context root, on both servers. */
    private static final String NAME = "http-redis";

    private static final String CRASHABLE = "api/resources/crashable";

    /**
     * The crashable endpoint's lease here (its annotation says 30 s): long enough for a kill and a
     * duplicate, short enough that waiting it out costs little, since no server restarts.
     */
    private static final String CRASH_LEASE =
            ResourcesResource.class.getName() + "/crashable/Idempotent/leaseTtl=10s\n";

    /** Lease left to the dead claim when the duplicate is sent, at least. */
    private static final long ENOUGH_LEASE_LEFT_MILLIS = 3_000;

    private static OwnServer ownServer;
    private static CompletableFuture<ServerToKill> killable;

    @Deployment(testable = false)
    static WebArchive application() throws IOException {
        String config = ItRedis.storeConfig() + CRASH_LEASE;
        // The server that dies runs the same application under the same name (the effective key
        // and the fingerprint include its path), without the BASIC authentication of the
        // cross-tenant scenario, which it does not run; made before Arquillian deploys (see
        // HttpJdbcScenarios.startInBackground).
        WebArchive crashing =
                LibraryJar.addRedisClient(
                        withoutShortLease(memoryWar(NAME, "idemkit.require-key=true\n" + config)));
        ownServer = OwnServer.of("idemkit-http-redis", crashing);
        killable = HttpJdbcScenarios.startInBackground(ownServer, crashing);
        return LibraryJar.addRedisClient(withoutShortLease(scenarioWar(NAME, config)));
    }

    @AfterAll
    static void stopOwnServer() throws Exception {
        if (ownServer != null) {
            if (killable != null) {
                killable.handle((started, failed) -> null).join(); // not closed while it starts
            }
            ownServer.close();
        }
    }

    /**
     * The reference's crash-recovery-lease-expiry: the server that runs the first request dies by
     * SIGKILL while its handler runs; its claim stays in Redis; the retry on the other server is
     * answered in progress (423) while the dead claim's lease holds, and once the lease has run out
     * on Redis's clock it runs, once, and is replayed after.
     */
    @Test
    void crash_recovery_lease_expiry() throws Exception {
        ServerToKill target = killable.join();
        assertThat(target.root().getPath())
                .as("the application's path on both servers")
                .isEqualTo(base.toURI().getPath());
        String key = key("K6");
        long leaseUntil = crashMidRequest(target, key);
        if (leaseUntil - ItRedis.serverMillis() < ENOUGH_LEASE_LEFT_MILLIS) {
            // The kill took most of the lease (a loaded machine): the duplicate could meet a
            // lapsed claim. Staged once more on the server started again.
            System.out.println("crash_recovery_lease_expiry: the kill took most of the lease");
            target.server().start(target.root().resolve("api/calls/probe"));
            key = key("K6-again");
            leaseUntil = crashMidRequest(target, key);
        }
        long leaseLeft = leaseUntil - ItRedis.serverMillis();
        System.out.printf(
                "crash_recovery_lease_expiry: %d ms of the dead claim's lease left at the retry%n",
                leaseLeft);
        assertThat(leaseLeft)
                .as("ms of the dead claim's lease left before the retry")
                .isGreaterThanOrEqualTo(ENOUGH_LEASE_LEFT_MILLIS);

        Reply during = post(CRASHABLE, BODY_X, key);
        long deadline = leaseUntil;
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> ItRedis.serverMillis() > deadline);
        Reply after = post(CRASHABLE, BODY_X, key);
        String events = http.get("api/events/" + effectiveKey(key, CRASHABLE)).text();
        Reply replay = post(CRASHABLE, BODY_X, key);

        assertThat(during.status()).as("within the dead claim's lease").isEqualTo(423);
        assertThat(after.status()).isEqualTo(201);
        assertThat(after.has("Idempotency-Replayed")).isFalse();
        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.text()).isEqualTo(after.text());
        assertThat(calls()).as("runs on the surviving server").isEqualTo(1);
        assertThat(events).isEqualTo("idempotency.conflict,idempotency.lease_reclaimed");
    }

    /**
     * Sends a keyed request to {@code target} that runs for a minute, kills the server while its
     * handler runs, and checks that the claim outlives it in Redis.
     *
     * @return the dead claim's {@code lease_until}, in ms on Redis's clock
     */
    private long crashMidRequest(ServerToKill target, String key) throws Exception {
        HttpCalls doomedServer = new HttpCalls(target.root());
        CompletableFuture<Reply> doomed =
                CompletableFuture.supplyAsync(
                        () -> doomedServer.postKeyed(CRASHABLE, BODY_X, key, tag, DELAY, "60000"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> Integer.parseInt(doomedServer.get("api/calls/" + tag).text()) >= 1);

        target.server().kill();

        assertThat(doomed)
                .failsWithin(30, TimeUnit.SECONDS)
                .withThrowableThat()
                .withMessageContaining("request failed");
        try (Jedis redis = ItRedis.connect()) {
            String record = ItRedis.recordKey(effectiveKey(key, CRASHABLE));
            assertThat(redis.hget(record, "state"))
                    .as("the dead server's claim outlives it")
                    .isEqualTo("CLAIMED");
            return Long.parseLong(redis.hget(record, "lease_until"));
        }
    }

    /**
     * Plants, raw, the record of {@code effectiveKey} as a broken writer could leave it: a hash
     * with every field of a completed result, live until 2100, but whose headers cannot be decoded
     * (no length prefix), so that the store cannot read it back as a record.
     */
    @Override
    void plantCorruptRecord(String effectiveKey) {
        try (Jedis redis = ItRedis.connect()) {
            redis.hset(
                    ItRedis.recordKey(effectiveKey),
                    Map.ofEntries(
                            Map.entry("state", "COMPLETED"),
                            Map.entry("fp", "f".repeat(64)),
                            Map.entry("fpv", "1"),
                            Map.entry("token", "0".repeat(32)),
                            Map.entry("claimed_at", "0"),
                            Map.entry("lease_until", "4102444800000"),
                            Map.entry("completed_at", "0"),
                            Map.entry("expires_at", "4102444800000"),
                            Map.entry("status", "201"),
                            Map.entry("headers", "a header without a length"),
                            Map.entry("body", "{\"name\":\"planted\"}")));
        }
    }

    @Test
    void completedRequest_isStoredInRedisAsTheClientReceivedIt() throws Exception {
        String path = "api/resources";
        Reply first = post(path, BODY_X, key("D"), "X-Test-Headers", "true");

        try (RedisIdempotencyStore other = ItRedis.storeOfAnotherProcess()) {
            IdempotencyRecord record = other.find(effectiveKey(key("D"), path)).orElseThrow();
            assertThat(record.result().status()).isEqualTo(201);
            assertThat(new String(record.result().body(), StandardCharsets.UTF_8))
                    .isEqualTo(first.text());
            assertThat(record.result().headers())
                    .extracting(h -> h.name().toLowerCase(Locale.ROOT))
                    .contains("location", "etag", "content-type")
                    .doesNotContain("set-cookie", "content-length");
        }
    }
}
