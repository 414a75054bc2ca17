package io.idemkit.it.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.FaultProxy;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store faults a node must survive (C4.6, C4.7, C13), injected by a {@link FaultProxy} between
 * node A's data sources and a real PostgreSQL, with node B on the same database directly. Each
 * runtime's class extends this one and gives the nodes ({@link #nodes()}); every scenario restores
 * the proxy when it ends, passed or failed.
 *
 * <p>Node A's application runs with {@code idemkit.jdbc.network-timeout=2s} and the default wait
 * timeout (10 s); its {@code faults/*} methods ({@code io.idemkit.it.faults.app}) hold a 6 s lease
 * (a beat of 2 s, a renewal deadline of 1.33 s) and wait 30 s.
 */
public abstract class FaultScenarios {

    /** {@code idemkit.wait-timeout}'s default, which the test application keeps. */
    public static final Duration WAIT_TIMEOUT = Duration.ofSeconds(10);

    private static final String BODY = "{\"name\": \"x\"}";

    /** How long the long operations hold: several leases of 6 s, so that a lapse would show. */
    private static final long RUN_MS = 14_000;

    private final String tag = UUID.randomUUID().toString();
    private HttpCalls a;
    private HttpCalls b;
    private FaultProxy proxy;
    private DataSource database;

    /**
     * The two nodes and what stands between A and the database.
     *
     * @param a node A, whose data sources (the store's and the business one) pass through {@code
     *     proxy}
     * @param b node B, on the same database directly
     * @param proxy between A and the database, passing every byte
     * @param database the database, read directly as another process would
     */
    public record Nodes(HttpCalls a, HttpCalls b, FaultProxy proxy, DataSource database) {}

    /**
     * @return the runtime's nodes, started
     */
    protected abstract Nodes nodes() throws Exception;

    @BeforeEach
    public final void takeNodes() throws Exception {
        Nodes nodes = nodes();
        a = nodes.a();
        b = nodes.b();
        proxy = nodes.proxy();
        database = nodes.database();
    }

    /**
     * A1 and A3: with every store connection of A stalled (half-open: connected, never answering),
     * keyed POSTs to A are answered within the wait timeout as a store outage (C4.6, fail-closed:
     * 503 {@code application/problem+json}, {@code urn:idemkit:storage-error}), never a 500 nor a
     * hang, and their handler does not run: the first on a pooled connection, which the network
     * bound ({@code idemkit.jdbc.network-timeout}) ends; the second after the pool dropped it, on a
     * new connection whose handshake stalls. Once the proxy is restored, A serves keyed POSTs again
     * (201, then the replay) without a restart.
     *
     * <p>A statement sent into the stall is held, not lost, and reaches the database when the stall
     * ends, as a delayed packet would: a claim written so after its caller got 503 holds its key
     * until its lease lapses (its owner gave up on it, so nothing renews it). So the test sends a
     * new key after the restore.
     */
    @Test
    public void everyStoreConnectionStalled_aKeyedPostGets503WithinTheWaitTimeout_thenServesAgain()
            throws Exception {
        String stalledTag = tag + "-stalled";
        assertThat(a.postKeyed("api/resources", BODY, "warm-" + tag, tag).status())
                .as("A serves before the stall")
                .isEqualTo(201);
        try {
            proxy.stallAll();
            for (int i = 0; i < 2; i++) {
                String key = "stalled-" + i + "-" + tag;
                long start = System.nanoTime();
                CompletableFuture<Reply> during =
                        CompletableFuture.supplyAsync(
                                () -> a.postKeyed("api/resources", BODY, key, stalledTag));

                assertThat(during)
                        .as("POST %s answered within the wait timeout (%s)", i, WAIT_TIMEOUT)
                        .succeedsWithin(WAIT_TIMEOUT);
                Reply refused = during.get();
                System.out.println(
                        "FaultScenarios: keyed POST "
                                + i
                                + " to a stalled store answered "
                                + refused.status()
                                + " after "
                                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                                + " ms");
                assertThat(refused.status()).as(refused.text()).isEqualTo(503);
                assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
                assertThat(refused.text()).contains("urn:idemkit:storage-error");
            }
            assertThat(calls(a, stalledTag)).as("no handler ran").isZero();
        } finally {
            proxy.restore();
        }
        String key = "restored-" + tag;
        String restoredTag = tag + "-restored";
        Reply first =
                Awaitility.await("A serves again after the restore")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250))
                        .until(
                                () -> a.postKeyed("api/resources", BODY, key, restoredTag),
                                r -> r.status() == 201);
        Reply again = a.postKeyed("api/resources", BODY, key, restoredTag);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(again.text()).isEqualTo(first.text());
        assertThat(calls(a, restoredTag)).as("ran once, after the restore").isEqualTo(1);
    }

    /**
     * A2: one of A's store connections stalls, the one the next statement goes over, which is a
     * lease renewal of one of three long operations running on A (C4.7). That renewal misses its
     * deadline and its operation alone is told (interrupted); every other operation's lease keeps
     * being renewed, so their duplicates, waiting on B meanwhile, keep waiting, never run, and
     * replay A's results. A lease that lapsed would let B take its key over and run it: with one
     * heartbeat thread and no deadline, as the store once had, all three did.
     */
    @Test
    public void oneStalledConnection_costsNoOtherKeysLease_andTheirDuplicatesOnBWait()
            throws Exception {
        int keys = 3;
        List<CompletableFuture<Reply>> onA = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            onA.add(runAsync(a, "slow", "beat-" + i + "-" + tag, tag + "-" + i, RUN_MS));
        }
        for (int i = 0; i < keys; i++) {
            String keyTag = tag + "-" + i;
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runs(a, keyTag) == 1);
        }
        List<CompletableFuture<Reply>> onB = new ArrayList<>();
        try {
            for (int i = 0; i < keys; i++) {
                onB.add(runAsync(b, "slow", "beat-" + i + "-" + tag, tag + "-" + i, 0));
            }
            CompletableFuture<Integer> stalled = proxy.stallNextSender();
            assertThat(stalled).as("a renewal is sent").succeedsWithin(Duration.ofSeconds(20));

            List<Reply> fromA = new ArrayList<>();
            for (CompletableFuture<Reply> reply : onA) {
                fromA.add(reply.get(60, TimeUnit.SECONDS));
            }
            List<Reply> fromB = new ArrayList<>();
            for (CompletableFuture<Reply> reply : onB) {
                fromB.add(reply.get(60, TimeUnit.SECONDS));
            }
            int told = 0;
            for (int i = 0; i < keys; i++) {
                String keyTag = tag + "-" + i;
                if (told(a, keyTag) >= 0) {
                    told++;
                    continue; // its lease was at risk: B may take it over, once
                }
                assertThat(fromA.get(i).status()).as(fromA.get(i).text()).isEqualTo(200);
                assertThat(runs(b, keyTag)).as("B never ran key %s", i).isZero();
                assertThat(fromB.get(i).status()).as(fromB.get(i).text()).isEqualTo(200);
                assertThat(fromB.get(i).text()).isEqualTo(fromA.get(i).text());
            }
            assertThat(told).as("owners told of a lost lease: the stalled renewal's").isEqualTo(1);
        } finally {
            proxy.restore();
        }
    }

    /**
     * B: A runs a payment whose record completes inside its JTA transaction (C13), a duplicate
     * waits on B, and A is cut from the database (every connection reset, new ones refused). A's
     * renewals fail, so A is told (interrupted, C4.7) before its lease could lapse, and before B
     * takes the key over; A's transaction, its business row with it, never commits; B runs the
     * payment once. The database holds one payment row for the key. A's own row could not have
     * committed anyway (its business connection was cut too): what this shows of the library is
     * that B waited out A's lease instead of running beside it, that A was told first, and that the
     * key ends completed once. After the restore, A serves payments again without a restart.
     */
    @Test
    public void aNodeCutMidPayment_isToldBeforeTheOtherTakesOver_andThePaymentIsWrittenOnce()
            throws Exception {
        String key = "cut-" + tag;
        CompletableFuture<Reply> onA = runAsync(a, "pay", key, tag, 60_000);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> runs(a, tag) == 1);
        CompletableFuture<Reply> onB;
        try {
            onB = runAsync(b, "pay", key, tag, 0);
            proxy.cut();

            Reply fromA = onA.get(60, TimeUnit.SECONDS);
            Reply fromB = onB.get(60, TimeUnit.SECONDS);

            assertThat(fromA.status()).as("A's answer: %s", fromA.text()).isNotEqualTo(200);
            assertThat(fromA.status()).as("never a 500: %s", fromA.text()).isNotEqualTo(500);
            assertThat(fromB.status()).as(fromB.text()).isEqualTo(200);
            assertThat(fromB.text()).isEqualTo("paid " + key);
            assertThat(runs(b, tag)).as("B ran it once").isEqualTo(1);
            assertThat(payments(key)).as("payment rows of the key").isEqualTo(1);
            long told = told(a, tag);
            assertThat(told).as("A was told its lease was lost").isPositive();
            assertThat(told).as("A was told before B ran it").isLessThan(firstRun(b, tag));
        } finally {
            proxy.restore();
        }
        String after = "after-cut-" + tag;
        Reply paid =
                Awaitility.await("A serves again after the restore")
                        .atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(250))
                        .until(
                                () -> run(a, "pay", after, tag + "-after", 0),
                                r -> r.status() == 200);
        Reply replay = run(a, "pay", after, tag + "-after", 0);
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.text()).isEqualTo(paid.text());
        assertThat(payments(after)).isEqualTo(1);
        assertThat(runs(a, tag + "-after")).isEqualTo(1);
    }

    private static CompletableFuture<Reply> runAsync(
            HttpCalls node, String method, String key, String tag, long ms) {
        return CompletableFuture.supplyAsync(() -> run(node, method, key, tag, ms));
    }

    private static Reply run(HttpCalls node, String method, String key, String tag, long ms) {
        return node.postJson(
                "api/faults/" + method + "?key=" + key + "&tag=" + tag + "&ms=" + ms, "{}");
    }

    private static int runs(HttpCalls node, String tag) {
        return Integer.parseInt(node.get("api/faults/runs/" + tag).text());
    }

    private static long firstRun(HttpCalls node, String tag) {
        return Long.parseLong(node.get("api/faults/first-run/" + tag).text());
    }

    private static long told(HttpCalls node, String tag) {
        return Long.parseLong(node.get("api/faults/told/" + tag).text());
    }

    private static int calls(HttpCalls node, String tag) {
        return Integer.parseInt(node.get("api/calls/" + tag).text());
    }

    private int payments(String key) throws SQLException {
        try (Connection c = database.getConnection();
                PreparedStatement count =
                        c.prepareStatement(
                                "SELECT count(*) FROM fault_payments WHERE pay_key = ?")) {
            count.setString(1, key);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
