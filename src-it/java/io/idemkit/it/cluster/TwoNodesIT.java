package io.idemkit.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.http.HttpScenarioSupport;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Two nodes on one database (C4.1, C4.3, C9, C12): two Open Liberty servers, each on its own ports,
 * run the same application on the JDBC store, whose data sources reach one real PostgreSQL; the
 * duplicates of one key are sent to both. The store's wake-ups listen on each node (the driver's
 * library is given to the application, as docs/jdbc-store.md says), so a waiter on one node hears
 * of a completion on the other. Every server is on loopback; the test stops them all.
 */
@EnabledIfSystemProperty(
        named = "idemkit.it.runtime",
        matches = "liberty",
        disabledReason =
                "two Open Liberty servers of the test's own, on server-defined data sources")
class TwoNodesIT {

    private static final String WAR = "two-nodes";
    private static final String BODY = "{\"name\": \"x\"}";
    private static EmbeddedPostgres postgres;
    private static final LibertyServer[] NODES = new LibertyServer[2];
    private static final URI[] APPS = new URI[2];
    private static final HttpCalls[] HTTP = new HttpCalls[2];

    private String tag;

    @BeforeAll
    static void start() throws Exception {
        postgres = ItPostgres.start();
        WebArchive war = HttpScenarioSupport.memoryWar(WAR, ItPostgres.STORE_CONFIG);
        String config =
                ItPostgres.libertyDataSources(postgres)
                        + ItPostgres.libertyApplicationSeeingTheDriver(WAR);
        for (int n = 0; n < 2; n++) {
            NODES[n] = new LibertyServer("idemkit-node-" + n, war, config);
            NODES[n].start(NODES[n].application(war).resolve("api/calls/probe"));
            APPS[n] = NODES[n].application(war);
            HTTP[n] = new HttpCalls(APPS[n]);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (LibertyServer node : NODES) {
            if (node != null) {
                node.close();
            }
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void newTag() {
        tag = UUID.randomUUID().toString();
    }

    @Test
    void fiftyDuplicatesSpreadOverBothNodes_runOnce_andEveryCallerGetsTheResult() throws Exception {
        String key = "spread-" + tag;
        ExecutorService callers = Executors.newFixedThreadPool(50);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Reply>> replies = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                HttpCalls node = HTTP[i % 2];
                replies.add(
                        CompletableFuture.supplyAsync(
                                () -> {
                                    HttpScenarioSupport.await(go);
                                    return untilNotInProgress(
                                            () ->
                                                    node.postKeyed(
                                                            "api/resources",
                                                            BODY,
                                                            key,
                                                            tag,
                                                            HttpScenarioSupport.DELAY,
                                                            "1000"));
                                },
                                callers));
            }
            go.countDown();
            List<Reply> answers = new ArrayList<>();
            for (CompletableFuture<Reply> reply : replies) {
                answers.add(reply.get(120, TimeUnit.SECONDS));
            }

            assertThat(calls(0) + calls(1)).as("runs over both nodes").isEqualTo(1);
            assertThat(answers).extracting(Reply::status).containsOnly(201);
            assertThat(answers).extracting(Reply::text).containsOnly(answers.get(0).text());
            assertThat(answers)
                    .filteredOn(r -> !r.has("Idempotency-Replayed"))
                    .as("the one fresh run")
                    .hasSize(1);
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void theNodeRunningTheOperationIsKilled_aDuplicateOnTheOtherTakesOverAfterTheLease_andRunsOnce()
            throws Exception {
        String key = "takeover-" + tag;
        String path = "api/resources/short-lease/takeover";
        CompletableFuture<Reply> doomed =
                CompletableFuture.supplyAsync(
                        () ->
                                HTTP[0].postKeyed(
                                        path, BODY, key, tag, HttpScenarioSupport.DELAY, "60000"));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls(0) == 1);

        NODES[0].kill();
        try {
            // Waits on node 1 while the dead node's lease runs out (5 s, no longer renewed), then
            // claims the key over and runs.
            Reply takenOver = HTTP[1].postKeyed(path, BODY, key, tag);

            assertThat(doomed)
                    .failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableThat()
                    .withMessageContaining("request failed");
            assertThat(takenOver.status()).isEqualTo(201);
            assertThat(takenOver.has("Idempotency-Replayed")).isFalse();
            assertThat(calls(1)).as("one run after the kill").isEqualTo(1);
            Reply again = HTTP[1].postKeyed(path, BODY, key, tag);
            assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
            assertThat(again.text()).isEqualTo(takenOver.text());
            assertThat(calls(1)).as("never twice").isEqualTo(1);
        } finally {
            NODES[0].start(APPS[0].resolve("api/calls/probe"));
        }
    }

    /**
     * The wake-up rounds of {@link #aWaiterOnTheOtherNode_isWokenByTheNotification_notByItsPoll}:
     * an odd number, so that the median is one of them.
     */
    private static final int ROUNDS = 21;

    /**
     * What the median lag must stay under: a fifth of the poll's longest pause. See {@link
     * #aWaiterOnTheOtherNode_isWokenByTheNotification_notByItsPoll}.
     */
    private static final long MEDIAN_LAG_BOUND_MS = 100;

    /**
     * The time from a completion on one node to the replay of a duplicate waiting on the other: the
     * waiter is woken by PostgreSQL's {@code NOTIFY} (C4.3, C12), not left to its poll.
     *
     * <p>The bound is one that a waiter left to its poll does not meet, whatever the machine's
     * speed. By the completion the waiter has waited longer than its poll takes to reach its
     * longest pause (10 ms doubling to 500 ms: 630 ms), and the first node's run lasts 1.2 s plus a
     * random 0 to 500 ms, so that the completion falls anywhere in a pause: a waiter that only
     * polled reads it a uniformly spread 0 to 500 ms late, under 100 ms in a fifth of the rounds,
     * and in more than half of 21 rounds with a chance under 0.1% (binomial, p = 0.2). A woken
     * waiter reads it at once: only the HTTP round trips stand between the two answers. The poll's
     * pauses are fixed (no configuration lengthens them), so the bound is on the median, which a
     * few rounds slowed by this shared machine cannot move. The figures are printed.
     */
    @Test
    void aWaiterOnTheOtherNode_isWokenByTheNotification_notByItsPoll() throws Exception {
        List<Long> lags = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            String key = "lag-" + round + "-" + tag;
            String runMs = Integer.toString(1200 + ThreadLocalRandom.current().nextInt(500));
            int before = calls(0);
            CompletableFuture<Long> first =
                    CompletableFuture.supplyAsync(
                            () -> {
                                HTTP[0].postKeyed(
                                        "api/resources",
                                        BODY,
                                        key,
                                        tag,
                                        HttpScenarioSupport.DELAY,
                                        runMs);
                                return System.nanoTime();
                            });
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls(0) > before);
            Reply replay = HTTP[1].postKeyed("api/resources", BODY, key, tag);
            long replayedAt = System.nanoTime();
            long completedAt = first.get(30, TimeUnit.SECONDS);

            assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
            lags.add(TimeUnit.NANOSECONDS.toMillis(replayedAt - completedAt));
        }
        lags.sort(null);
        long median = lags.get(ROUNDS / 2);
        System.out.println(
                "TwoNodesIT: from the first node's answer to the other node's replay, ms, "
                        + ROUNDS
                        + " rounds (negative: the replay came first): min "
                        + lags.get(0)
                        + ", median "
                        + median
                        + ", max "
                        + lags.get(ROUNDS - 1)
                        + "; all "
                        + lags);
        assertThat(calls(1)).as("the other node never ran it").isZero();
        assertThat(median)
                .as("median lag, ms, of %s (a poll would be 0 to 500 ms late)", lags)
                .isLessThan(MEDIAN_LAG_BOUND_MS);
    }

    private int calls(int node) {
        return Integer.parseInt(HTTP[node].get("api/calls/" + tag).text());
    }

    /** Sends again while the answer is 423 (in progress), as a client following §6.3 would. */
    private static Reply untilNotInProgress(java.util.function.Supplier<Reply> send) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(send::get, r -> r.status() != 423);
    }
}
