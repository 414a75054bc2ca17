package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.OwnServer;
import java.net.URI;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.bson.Document;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A real server (Open Liberty, WildFly or Payara Micro, as the execution runs) dies mid-request
 * (SIGKILL), and later restarts (C2, C4.1, C9): the dead server's claim holds its key for the
 * lease, then the next request runs the resource once, and its stored result is replayed by the
 * same server after an ordinary restart. The MongoDB-wire server lives in this test's JVM, so it
 * outlives every server process. The lease is 18 s ({@code crashable-soon}); a restart on a loaded
 * machine that leaves too little of it stages the crash once more on the 30 s one ({@code
 * crashable}).
 */
class HttpCrashAndRestartIT {

    private static final String BODY = "{\"name\": \"x\"}";
    private static final MongoServer MONGO = ItMongo.start();

    private static String mongoUri() {
        return ItMongo.uri(MONGO);
    }

    @AfterAll
    static void stopMongo() {
        MONGO.shutdownNow();
    }

    @Test
    void serverKilledMidRequest_keyWaitsOutTheLease_thenRunsOnce_andItsResultSurvivesARestart()
            throws Exception {
        WebArchive war =
                HttpScenarios.war(
                        "http-restart",
                        "idemkit.mongo.uri="
                                + mongoUri()
                                + "\nidemkit.mongo.database=it_restart\nidemkit.mongo.timeout=1s\n");
        try (OwnServer server = OwnServer.of("idemkit-restart", war)) {
            String tag = UUID.randomUUID().toString();
            server.start(server.application(war).resolve("api/calls/" + tag));
            URI app = server.application(war);
            HttpCalls http = new HttpCalls(app);
            String path = "api/resources/crashable-soon";
            connect(http);

            String key = "crash-" + tag;
            if (!crashAndRestart(server, app, http, tag, path, key, SOON_LEASE)) {
                // The restart outlasted most of the dead claim's lease (a loaded machine): a
                // duplicate now could meet a takeover, not the dead claim. Staged once more, with
                // a longer lease.
                System.out.println(
                        "HttpCrashAndRestartIT: the restart took most of the lease; staging again"
                                + " with a 30 s lease");
                path = "api/resources/crashable";
                key = "crash-again-" + tag;
                assertThat(crashAndRestart(server, app, http, tag, path, key, LONG_LEASE))
                        .as("the restart left most of the dead claim's lease, the second time")
                        .isTrue();
            }
            String staged = key;
            String stagedPath = path;
            Reply whileLeased = http.postKeyed(stagedPath, BODY, staged, tag);
            assertThat(whileLeased.status()).isEqualTo(423);
            assertThat(whileLeased.header("Retry-After")).isNotNull();

            // The dead server's lease (on MongoDB's clock, longer than a restart) runs out; then
            // exactly one run.
            Reply ran =
                    Awaitility.await()
                            .atMost(Duration.ofSeconds(60))
                            .pollInterval(Duration.ofMillis(500))
                            .until(
                                    () -> http.postKeyed(stagedPath, BODY, staged, tag),
                                    r -> r.status() != 423);
            assertThat(ran.status()).isEqualTo(201);
            assertThat(ran.has("Idempotency-Replayed")).isFalse();
            assertThat(calls(http, tag)).isEqualTo(1);

            server.stop();
            startConnected(server, app, http, tag);
            Reply replay = http.postKeyed(stagedPath, BODY, staged, tag);

            assertThat(replay.status()).isEqualTo(201);
            assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
            assertThat(replay.text()).isEqualTo(ran.text());
            assertThat(calls(http, tag)).isZero();
        }
    }

    /**
     * Kills the server while it runs a keyed request on {@code path}, then starts it again.
     *
     * @param lease the lease of the endpoint at {@code path}
     * @return whether the server answered again while at least {@link #ENOUGH_LEASE_LEFT} of the
     *     dead claim's lease was left (timed from before the request, so it overstates what passed)
     */
    private static boolean crashAndRestart(
            OwnServer server,
            URI app,
            HttpCalls http,
            String tag,
            String path,
            String key,
            Duration lease)
            throws Exception {
        long started = System.nanoTime();
        String effectiveKey =
                EffectiveKey.forHttp(
                        key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", app.getPath() + path);
        CompletableFuture<Reply> doomed =
                CompletableFuture.supplyAsync(
                        () -> http.postKeyed(path, BODY, key, tag, "X-Test-Delay-Ms", "60000"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> isClaimed(effectiveKey));
        server.kill();

        assertThat(doomed)
                .failsWithin(30, TimeUnit.SECONDS)
                .withThrowableThat()
                .withMessageContaining("request failed");

        startConnected(server, app, http, tag);
        return Duration.ofNanos(System.nanoTime() - started)
                        .compareTo(lease.minus(ENOUGH_LEASE_LEFT))
                < 0;
    }

    /** The lease of {@code crashable-soon}, and of {@code crashable}. */
    private static final Duration SOON_LEASE = Duration.ofSeconds(18);

    private static final Duration LONG_LEASE = Duration.ofSeconds(30);

    /** Lease left when the duplicate is sent, at least: far more than one request takes. */
    private static final Duration ENOUGH_LEASE_LEFT = Duration.ofSeconds(5);

    /**
     * Starts the server, then waits until the application's store answers: the store connects to
     * MongoDB on its first operation, and in a server that has just started, on two busy cores,
     * that first operation (connection, driver classes, index check) can outlast this test's 1 s
     * idemkit.mongo.timeout and answer 503 (fail-closed). That is not what this test is about, so
     * one request on a key and tag of its own connects the store first.
     */
    private static void startConnected(OwnServer server, URI app, HttpCalls http, String tag)
            throws Exception {
        server.start(app.resolve("api/calls/" + tag));
        connect(http);
    }

    /** One request on a key and tag of its own, until it answers 201: the store is connected. */
    private static void connect(HttpCalls http) {
        String warmUp = "warm-up-" + UUID.randomUUID();
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> http.postKeyed("api/resources", BODY, warmUp, warmUp).status(),
                        status -> status == 201);
    }

    private static boolean isClaimed(String effectiveKey) {
        try (MongoClient client = MongoClients.create(mongoUri())) {
            Document record =
                    client.getDatabase("it_restart")
                            .getCollection("idemkit_records")
                            .find(new Document("_id", effectiveKey))
                            .first();
            return record != null && "CLAIMED".equals(record.getString("state"));
        }
    }

    private static int calls(HttpCalls http, String tag) {
        return Integer.parseInt(http.get("api/calls/" + tag).text());
    }
}
