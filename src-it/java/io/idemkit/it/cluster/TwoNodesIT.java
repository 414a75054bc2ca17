package io.idemkit.it.cluster;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.faults.FaultScenarios;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.HttpScenarioSupport;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Two nodes on one database, and on one Redis (C4.1, C4.3, C9, C12): two Open Liberty servers, each
 * on its own ports, run the same application on the JDBC store, whose data sources reach one real
 * PostgreSQL, and beside it on the Redis store, on one real Redis server; the duplicates of one key
 * are sent to both. The data sources are Liberty's usual set-up: the driver in a server {@code
 * <library>} that their {@code <jdbcDriver>} references, which the application cannot see; the
 * store's wake-ups still listen on each node (it reaches the driver through the driver's own class
 * loader), so a waiter on one node hears of a completion on the other; on Redis, by the store's
 * Pub/Sub channel. Every server is on loopback; the test stops them all. The servers are {@link
 * TwoNodes}'; node 0 reaches the database through a proxy, which passes every byte except in the
 * store fault tests nested here ({@link Faults}), which share the servers rather than start their
 * own.
 */
@OnRuntimes(
        value = LIBERTY,
        because = "two Open Liberty servers of the test's own, on server-defined data sources")
class TwoNodesIT {

    private static final String BODY = "{\"name\": \"x\"}";

    /** The shared servers ({@link TwoNodes}): node 0's data sources pass through its proxy. */
    private static final LibertyServer[] NODES = TwoNodes.NODES;

    private static final URI[] APPS = TwoNodes.APPS;
    private static final HttpCalls[] HTTP = TwoNodes.HTTP;
    private static final HttpCalls[] REDIS_HTTP = TwoNodes.REDIS_HTTP;

    private String tag;

    @BeforeAll
    static void start() throws Exception {
        TwoNodes.start();
    }

    @AfterAll
    static void stop() throws Exception {
        TwoNodes.stop();
    }

    /**
     * Store faults on two Open Liberty servers (C4.6, C4.7, C13): {@link FaultScenarios} on these
     * servers, node 0 (A) reaching PostgreSQL through the proxy, which stalls or cuts its
     * connections, node 1 (B) directly.
     */
    /** Two servers in one Kafka consumer group. */
    @Nested
    class Kafka {
        @Test
        void twoServersInOneGroup_copiesOfAKeyOnBoth_runOncePerKey() throws Exception {
            TwoNodesKafka.copiesOfAKeyOnBoth_runOncePerKey(TwoNodes.KAFKA_HTTP);
        }
    }

    @Nested
    class Faults extends FaultScenarios {
        @Override
        protected Nodes nodes() {
            return new Nodes(TwoNodes.HTTP[0], TwoNodes.HTTP[1], TwoNodes.proxy, TwoNodes.database);
        }
    }

    @BeforeEach
    void newTag() {
        tag = UUID.randomUUID().toString();
    }

    @Test
    void fiftyDuplicatesSpreadOverBothNodes_runOnce_andEveryCallerGetsTheResult() throws Exception {
        spreadOverBothNodes(HTTP);
    }

    @Test
    void onRedis_fiftyDuplicatesSpreadOverBothNodes_runOnce_andEveryCallerGetsTheResult()
            throws Exception {
        spreadOverBothNodes(REDIS_HTTP);
    }

    private void spreadOverBothNodes(HttpCalls[] nodes) throws Exception {
        String key = "spread-" + tag;
        ExecutorService callers = Executors.newFixedThreadPool(50);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Reply>> replies = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                HttpCalls node = nodes[i % 2];
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

            assertThat(calls(nodes, 0) + calls(nodes, 1)).as("runs over both nodes").isEqualTo(1);
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

    /**
     * One kill of node 0 while it runs an operation on each store (the JDBC store's application and
     * the Redis store's): on each, a duplicate sent to node 1 waits while the dead node's 5 s lease
     * runs out, no longer renewed, then claims the key over and runs it once.
     */
    @Test
    void theNodeRunningTheOperationIsKilled_aDuplicateOnTheOtherTakesOverAfterTheLease_andRunsOnce()
            throws Exception {
        String key = "takeover-" + tag;
        String path = "api/resources/short-lease/takeover";
        List<HttpCalls[]> stores = List.of(HTTP, REDIS_HTTP);
        List<CompletableFuture<Reply>> doomed = new ArrayList<>();
        for (HttpCalls[] nodes : stores) {
            doomed.add(
                    CompletableFuture.supplyAsync(
                            () ->
                                    nodes[0].postKeyed(
                                            path,
                                            BODY,
                                            key,
                                            tag,
                                            HttpScenarioSupport.DELAY,
                                            "60000")));
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls(nodes, 0) == 1);
        }

        NODES[0].kill();
        // Node 0 starts again, for the tests after this one, while node 1 waits out the dead
        // node's lease: a new process renews none of the claims the dead one held.
        CompletableFuture<Void> restarted =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                NODES[0].start(APPS[0].resolve("api/calls/probe"));
                            } catch (Exception e) {
                                throw new CompletionException(e);
                            }
                        });
        try {
            for (int s = 0; s < stores.size(); s++) {
                HttpCalls[] nodes = stores.get(s);
                String store = s == 0 ? "JDBC" : "Redis";
                // Waits on node 1 while the dead node's lease runs out, then claims it and runs.
                Reply takenOver = nodes[1].postKeyed(path, BODY, key, tag);

                assertThat(doomed.get(s))
                        .failsWithin(30, TimeUnit.SECONDS)
                        .withThrowableThat()
                        .withMessageContaining("request failed");
                assertThat(takenOver.status()).as(store).isEqualTo(201);
                assertThat(takenOver.has("Idempotency-Replayed")).as(store).isFalse();
                assertThat(calls(nodes, 1)).as("one run after the kill, " + store).isEqualTo(1);
                Reply again = nodes[1].postKeyed(path, BODY, key, tag);
                assertThat(again.header("Idempotency-Replayed")).as(store).isEqualTo("true");
                assertThat(again.text()).as(store).isEqualTo(takenOver.text());
                assertThat(calls(nodes, 1)).as("never twice, " + store).isEqualTo(1);
            }
        } finally {
            restarted.join();
            TwoNodes.awaitRedisApplication(0);
        }
    }

    /** The wake-up rounds: an odd number, so that the median is one of them. */
    private static final int ROUNDS = 5;

    /** How long the first node's run lasts: between two of a waiter's reads, 2550 and 5110 ms. */
    private static final int RUN_MS = 3500;

    /**
     * How long after one round's run starts the next one's starts: its completion falls that much
     * later, apart from the others'.
     */
    private static final long STAGGER_MS = 700;

    /**
     * What the median lag must stay under. See {@link
     * #aWaiterOnTheOtherNode_isWokenByTheNotification_notByItsPoll}.
     */
    private static final long MEDIAN_LAG_BOUND_MS = 800;

    /**
     * The time from a completion on one node to the replay of a duplicate waiting on the other: the
     * waiter is woken by PostgreSQL's {@code NOTIFY} (C4.3, C12), not left to its poll, in
     * Liberty's usual data-source set-up, where the application cannot see the driver's classes.
     *
     * <p>The bound is one that a waiter left to its poll does not meet. The duplicate is sent to
     * the other node once the first node runs, and starts waiting within a few hundred ms of that
     * run's start; the run lasts {@value #RUN_MS} ms, so the completion falls after the waiter's
     * read at 2550 ms and before its next at 5110 ms ({@link TwoNodes#POLL_CONFIG}): a waiter that
     * only polled would read it about 1.6 s late, and under {@value #MEDIAN_LAG_BOUND_MS} ms only
     * if its start were more than 0.9 s late or the completion's commit took 0.8 s. A woken waiter
     * reads it at once: only the HTTP round trips stand between the two answers. The bound is on
     * the median of {@value #ROUNDS} rounds, which a round slowed by this shared machine cannot
     * move. The rounds overlap, each on a key of its own, one starting {@value #STAGGER_MS} ms
     * after the other: a waiter is woken for its own key only, and its poll is its own, so each
     * round is timed as if alone, and their completions fall apart. The figures are printed;
     * neither node logs that it cannot listen, nor a listener's failure.
     */
    @Test
    void aWaiterOnTheOtherNode_isWokenByTheNotification_notByItsPoll() throws Exception {
        wokenAcrossNodes(HTTP, "PostgreSQL NOTIFY");
        for (LibertyServer node : NODES) {
            assertThat(node.messagesLog())
                    .doesNotContain("cannot listen for completions")
                    .doesNotContain("PostgreSQL listener failed")
                    .doesNotContain("Exception in thread \"idemkit-listener");
        }
    }

    /**
     * The same on the Redis store: the waiter is woken by the completion's publication on the
     * store's channel (Pub/Sub), its poll pausing as long ({@link TwoNodes#REDIS_CONFIG}).
     */
    @Test
    void onRedis_aWaiterOnTheOtherNode_isWokenByThePublication_notByItsPoll() throws Exception {
        wokenAcrossNodes(REDIS_HTTP, "Redis Pub/Sub");
        for (LibertyServer node : NODES) {
            assertThat(node.messagesLog()).doesNotContain("Exception in thread \"idemkit-redis");
        }
    }

    private void wokenAcrossNodes(HttpCalls[] nodes, String how) throws Exception {
        // Each round waits on a key of its own, and a waiter is woken only for its own key
        // (CompletionPoll): the rounds overlap, one starting every STAGGER_MS, so that the run
        // takes about one round's time and a few staggers rather than five rounds'; the
        // completions still fall apart, so a pause of this shared machine slows one round, not
        // the median.
        ExecutorService callers = Executors.newFixedThreadPool(2 * ROUNDS);
        List<CompletableFuture<Long>> firsts = new ArrayList<>();
        List<CompletableFuture<Reply>> replays = new ArrayList<>();
        List<CompletableFuture<Long>> replayedAts = new ArrayList<>();
        try {
            int before = calls(nodes, 0);
            for (int round = 0; round < ROUNDS; round++) {
                String key = "lag-" + round + "-" + tag;
                firsts.add(
                        CompletableFuture.supplyAsync(
                                () -> {
                                    nodes[0].postKeyed(
                                            "api/resources",
                                            BODY,
                                            key,
                                            tag,
                                            HttpScenarioSupport.DELAY,
                                            Integer.toString(RUN_MS));
                                    return System.nanoTime();
                                },
                                callers));
                int running = before + round + 1;
                Awaitility.await()
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(20))
                        .until(() -> calls(nodes, 0) >= running);
                CompletableFuture<Reply> replay =
                        CompletableFuture.supplyAsync(
                                () -> nodes[1].postKeyed("api/resources", BODY, key, tag), callers);
                replays.add(replay);
                replayedAts.add(replay.thenApply(r -> System.nanoTime()));
                if (round < ROUNDS - 1) {
                    Thread.sleep(STAGGER_MS);
                }
            }
            List<Long> lags = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                Reply replay = replays.get(round).get(60, TimeUnit.SECONDS);
                long replayedAt = replayedAts.get(round).get(60, TimeUnit.SECONDS);
                long completedAt = firsts.get(round).get(60, TimeUnit.SECONDS);

                assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
                lags.add(TimeUnit.NANOSECONDS.toMillis(replayedAt - completedAt));
            }
            report(nodes, how, lags);
        } finally {
            callers.shutdownNow();
        }
    }

    private void report(HttpCalls[] nodes, String how, List<Long> lags) {
        lags.sort(null);
        long median = lags.get(ROUNDS / 2);
        System.out.println(
                "TwoNodesIT ("
                        + how
                        + "): from the first node's answer to the other node's replay, ms, "
                        + ROUNDS
                        + " rounds (negative: the replay came first): min "
                        + lags.get(0)
                        + ", median "
                        + median
                        + ", max "
                        + lags.get(ROUNDS - 1)
                        + "; all "
                        + lags);
        assertThat(calls(nodes, 1)).as("the other node never ran it").isZero();
        assertThat(nodes[1].get("api/store/health/notifications").text()).isEqualTo("listening");
        assertThat(median)
                .as("median lag, ms, of %s (a poll would be about 1.6 s late)", lags)
                .isLessThan(MEDIAN_LAG_BOUND_MS);
    }

    private int calls(HttpCalls[] nodes, int node) {
        return Integer.parseInt(nodes[node].get("api/calls/" + tag).text());
    }

    /** Sends again while the answer is 423 (in progress), as a client following §6.3 would. */
    private static Reply untilNotInProgress(java.util.function.Supplier<Reply> send) {
        return Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(send::get, r -> r.status() != 423);
    }
}
