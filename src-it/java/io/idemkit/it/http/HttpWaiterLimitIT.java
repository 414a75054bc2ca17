package io.idemkit.it.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code idemkit.max-waiters-per-key} in a deployed application, over HTTP (C4.3): with a limit of
 * two, five duplicates of a request still running make two waiters, which get its result once it
 * completes, and three that are answered "in progress" at once, while it still runs; none runs it.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class HttpWaiterLimitIT extends HttpScenarioSupport {

    @Deployment(testable = false)
    static WebArchive application() {
        return war(
                "http-waiter-limit",
                "idemkit.store=memory\nidemkit.max-waiters-per-key=2\nidemkit.wait-timeout=20s\n");
    }

    @Test
    void beyondTheLimit_aDuplicateIsAnsweredInProgressAtOnce_theWaitersGetTheResult()
            throws Exception {
        String key = key("W");
        // The first runs 3 s: far longer than five duplicates sent at once take to reach it.
        CompletableFuture<Timed> first =
                CompletableFuture.supplyAsync(
                        () ->
                                new Timed(
                                        post("api/resources", BODY_X, key, DELAY, "3000"),
                                        System.nanoTime()));
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> calls() == 1);

        List<CompletableFuture<Timed>> duplicates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            duplicates.add(
                    CompletableFuture.supplyAsync(
                            () ->
                                    new Timed(
                                            post("api/resources", BODY_X, key),
                                            System.nanoTime())));
        }
        Reply ran = first.get(60, TimeUnit.SECONDS).reply();
        long answeredAt = first.get().at();
        List<Timed> replies = new ArrayList<>();
        for (CompletableFuture<Timed> duplicate : duplicates) {
            replies.add(duplicate.get(60, TimeUnit.SECONDS));
        }

        assertThat(ran.status()).isEqualTo(201);
        List<Timed> refused = replies.stream().filter(t -> t.reply().status() == 423).toList();
        List<Timed> waited = replies.stream().filter(t -> t.reply().status() == 201).toList();
        assertThat(refused).as("answered in progress: those beyond the two waiters").hasSize(3);
        assertThat(refused)
                .as("at once, before the first was answered")
                .allMatch(t -> t.at() < answeredAt)
                .allMatch(t -> t.reply().header("Retry-After") != null);
        assertThat(waited).as("the two waiters").hasSize(2);
        assertThat(waited)
                .as("given the first's result once it completed")
                .allMatch(t -> "true".equals(t.reply().header("Idempotency-Replayed")))
                .allMatch(t -> t.reply().text().equals(ran.text()));
        assertThat(calls()).as("run once").isEqualTo(1);
    }

    /** A reply, and when it arrived. */
    private record Timed(Reply reply, long at) {}
}
