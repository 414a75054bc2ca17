package io.idemkit.it.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.transaction.slowcommit.SlowCommitApplication;
import java.net.URL;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A container-managed transaction whose commit outlasts the lease (C4.7, C7): a stateless EJB with
 * a 3 s lease, whose commit takes 8 s (a synchronization of its own sleeps in {@code
 * beforeCompletion}, as a slow resource's prepare would), on each runtime of the suite. idemkit
 * completes the record only after that commit, so its heartbeat must renew the lease from the
 * bean's return until the completion is written: a duplicate sent while the first call commits then
 * waits, and gets the first call's result, instead of taking the expired claim over and running the
 * operation again. Without the renewal, the duplicate runs it a second time and the first call's
 * completion is discarded ({@code lease_reclaimed_loss}).
 *
 * <p>The in-memory store: a MongoDB store would refuse so short a lease at deployment (C9).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CommitOutlastsLeaseIT {

    /** Over twice the lease: without renewals the claim expires well before the commit ends. */
    private static final long COMMIT_MILLIS = 8_000;

    @ArquillianResource URL base;

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "commit-outlasts-lease.war")
                        .addPackage(SlowCommitApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                // The duplicate waits through the whole commit.
                                                + "idemkit.wait-timeout=60s\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @Test
    void aDuplicateSentWhileTheFirstCallCommits_waitsAndReplays_andTheOperationRunsOnce()
            throws Exception {
        HttpCalls http = new HttpCalls(base.toURI());
        String key = UUID.randomUUID().toString();
        String pay = "api/slow-commit?key=" + key + "&commitMillis=";

        CompletableFuture<Reply> first =
                CompletableFuture.supplyAsync(() -> http.postJson(pay + COMMIT_MILLIS, ""));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> count(http, "committing", key) == 1);
        // The first call has returned from the bean; its transaction is committing.
        Reply duplicate = http.postJson(pay + "0", "");
        Reply original = first.get(60, TimeUnit.SECONDS);

        assertThat(original.status()).as(original.text()).isEqualTo(200);
        assertThat(duplicate.status()).as(duplicate.text()).isEqualTo(200);
        assertThat(duplicate.text()).isEqualTo(original.text()).endsWith("on run 1");
        assertThat(count(http, "runs", key)).as("runs").isEqualTo(1);
        assertThat(count(http, "commit-interrupted", key)).as("commits interrupted").isZero();
        assertThat(http.get("api/slow-commit/record/" + key).text()).isEqualTo("COMPLETED");
        assertThat(count(http, "new", "all")).as("completed by the first call").isEqualTo(1);
        assertThat(count(http, "replayed", "all")).as("replayed to the duplicate").isEqualTo(1);
        assertThat(count(http, "lease_reclaimed", "all")).as("claims taken over").isZero();
        assertThat(count(http, "lease_reclaimed_loss", "all")).as("results lost").isZero();
        assertThat(count(http, "lease_lost", "all")).as("leases lost").isZero();
    }

    private static int count(HttpCalls http, String what, String key) {
        return Integer.parseInt(http.get("api/slow-commit/" + what + "/" + key).text());
    }
}
