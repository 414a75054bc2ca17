package io.idemkit.it.message;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.OnRuntimes;
import java.time.Duration;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A message-driven bean whose transaction commits slower than its lease (C11.2, C4.7): the record
 * completes only after the commit, so the heartbeat must renew the lease from the bean's return
 * until the completion is written. On Open Liberty with its embedded messaging engine and the
 * in-memory store, a 3 s lease, and a commit of 8 s (a synchronization of the bean's own sleeps in
 * {@code beforeCompletion}); a re-send of the message's key arrives while the first delivery
 * commits. It must wait, and be acknowledged unrun once the first delivery's completion is written,
 * instead of taking the expired claim over and running the bean again, which is what a commit
 * through a remote messaging engine slower than the lease once did ({@link
 * io.idemkit.it.cluster.TwoNodesMessagesIT}).
 *
 * <p>The in-memory store: a MongoDB store would refuse so short a lease at deployment (C9).
 */
@OnRuntimes(
        value = LIBERTY,
        because = "the messaging server of these tests is Open Liberty's embedded one")
class MessageCommitOutlastsLeaseIT {

    private static final String APP = "message-slow-commit";

    /** Over twice the lease: without renewals the claim expires well before the commit ends. */
    private static final long COMMIT_MILLIS = 8_000;

    private static LibertyServer server;
    private static HttpCalls http;

    @BeforeAll
    static void startServer() throws Exception {
        WebArchive war =
                MessageScenarios.war(
                        APP,
                        "idemkit.store=memory\n"
                                + "idemkit.lease-ttl=3s\n"
                                // The re-send waits through the whole commit.
                                + "idemkit.wait-timeout=60s\n");
        server =
                new LibertyServer(
                        "idemkit-message-slow-commit", war, MessageScenarios.messaging(APP));
        server.start(server.application(war).resolve(MessageScenarios.PROBE));
        http = new HttpCalls(server.application(war));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aReSendArrivingWhileTheFirstDeliveryCommits_isAcknowledgedUnrun_andTheBeanRunsOnce() {
        String tag = UUID.randomUUID().toString();
        String key = "slow-commit-" + tag;
        int replayedBefore = countAll("replayed");
        int newBefore = countAll("decision-new");

        send(tag, "slow-commit&commitMillis=" + COMMIT_MILLIS, key);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> count("committing", tag) == 1);
        // The first delivery's bean has returned; its transaction is committing.
        send(tag, "ok", key);

        // Settled when the re-send has either run or been replayed.
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> count("runs", tag) + countAll("replayed") - replayedBefore >= 2);
        assertThat(count("runs", tag)).as("runs").isEqualTo(1);
        assertThat(countAll("replayed") - replayedBefore).as("replays").isEqualTo(1);
        assertThat(countAll("decision-new") - newBefore).as("completions").isEqualTo(1);
        assertThat(count("commit-interrupted", tag)).as("commits interrupted").isZero();
        assertThat(countAll("decision-lease_reclaimed")).as("claims taken over").isZero();
        assertThat(countAll("decision-lease_reclaimed_loss")).as("results lost").isZero();
        assertThat(countAll("decision-lease_lost")).as("leases lost").isZero();
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("pending", tag) == 0);
    }

    private static void send(String tag, String mode, String key) {
        String query = "api/messages?tag=" + tag + "&mode=" + mode + "&key=" + key;
        assertThat(http.postJson(query, "").status()).isEqualTo(200);
    }

    private static int count(String what, String tag) {
        return Integer.parseInt(http.get("api/messages/" + what + "/" + tag).text());
    }

    private static int countAll(String what) {
        return count(what, "all");
    }
}
