package io.idemkit.it.http;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.http.heap.HeapApplication;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The in-memory store's byte budget, {@code idemkit.memory.max-bytes}, holds against the real heap
 * of a deployed application (C10.1, C10.2), not only against the store's own estimate: an
 * application whose store may keep 8 MiB is sent 40 MiB of results, large random bodies under new
 * keys, and the heap its server's JVM retains after full collections grows by no more than the
 * budget and half of it again (the objects around each entry, and what else the server keeps of a
 * few hundred requests). A control beside it, the same application with a budget larger than what
 * it is sent, grows by nearly all of it, so the measurement sees what a store keeps.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {LIBERTY, WILDFLY},
        because =
                "Payara Micro runs one application per JVM (its Arquillian container starts a JVM"
                        + " for each deployment), so the control cannot share the budgeted"
                        + " application's heap")
class HttpMemoryHeapIT {

    private static final int BODY_BYTES = 256 * 1024;
    private static final long BUDGET_BYTES = 8L * 1024 * 1024;
    private static final int REQUESTS = 160;
    private static final long SENT_BYTES = (long) REQUESTS * BODY_BYTES;
    private static final long MIB = 1024 * 1024;

    @ArquillianResource
    @OperateOnDeployment("budgeted")
    private URL budgeted;

    @ArquillianResource
    @OperateOnDeployment("control")
    private URL control;

    @Deployment(name = "budgeted", testable = false)
    static WebArchive budgeted() {
        return application("http-heap-budgeted", BUDGET_BYTES);
    }

    @Deployment(name = "control", testable = false)
    static WebArchive control() {
        return application("http-heap-control", 4 * SENT_BYTES);
    }

    private static WebArchive application(String name, long maxBytes) {
        return LibraryJar.addAlone(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(HeapApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        "idemkit.store=memory\n"
                                                + "idemkit.scope-mode=single-tenant\n"
                                                + "idemkit.max-body-bytes="
                                                + BODY_BYTES
                                                + "\nidemkit.memory.max-bytes="
                                                + maxBytes
                                                + "\n"),
                                "META-INF/microprofile-config.properties"));
    }

    @Test
    void aStoreSentFarMoreThanItsBudget_retainsNoMoreHeapThanTheBudget() throws Exception {
        HttpCalls budgetedCalls = new HttpCalls(budgeted.toURI());
        HttpCalls controlCalls = new HttpCalls(control.toURI());
        String tag = UUID.randomUUID().toString();
        // Warm both up, so that the baseline holds what a first request loads.
        fill(budgetedCalls, tag + "-warm", 3);
        fill(controlCalls, tag + "-warm", 3);

        long baseline = retainedHeap(budgetedCalls);
        String[] budgetedKeys = fill(budgetedCalls, tag + "-b", REQUESTS);
        long afterBudgeted = retainedHeap(budgetedCalls);
        String[] controlKeys = fill(controlCalls, tag + "-c", REQUESTS);
        long afterControl = retainedHeap(budgetedCalls);

        long budgetedGrowth = afterBudgeted - baseline;
        long controlGrowth = afterControl - afterBudgeted;
        System.out.printf(
                "[idemkit-it] heap retained after %d MiB of results: budget %d MiB grew %.1f MiB,"
                        + " control grew %.1f MiB%n",
                SENT_BYTES / MIB,
                BUDGET_BYTES / MIB,
                budgetedGrowth / (double) MIB,
                controlGrowth / (double) MIB);
        assertThat(replayed(budgetedCalls, budgetedKeys[REQUESTS - 1]))
                .as("the budgeted store keeps the latest result")
                .isTrue();
        assertThat(replayed(budgetedCalls, budgetedKeys[0]))
                .as("and has evicted the first (C10.2)")
                .isFalse();
        assertThat(replayed(controlCalls, controlKeys[0]))
                .as("the control keeps even the first")
                .isTrue();
        // Half, not three quarters: a fresh-clone CI saw the control at 29.6 of 40 MiB (garbage of
        // the budgeted run collected between the two readings). Half still sets the control far
        // above the budgeted store's bound (12 MiB), which is what makes it a control.
        assertThat(controlGrowth)
                .as("the control retains most of what it was sent: the measurement sees a store")
                .isGreaterThan(SENT_BYTES / 2);
        assertThat(budgetedGrowth)
                .as("the budgeted store retains at most its budget and half of it again")
                .isLessThan(BUDGET_BYTES * 3 / 2);
    }

    /**
     * Sends {@code count} keyed requests, each answered with a body of {@value #BODY_BYTES} random
     * bytes.
     *
     * @return their keys, in the order sent
     */
    private static String[] fill(HttpCalls http, String prefix, int count) {
        String[] keys = new String[count];
        for (int i = 0; i < count; i++) {
            keys[i] = prefix + "-" + i;
            Reply reply = post(http, keys[i]);
            assertThat(reply.status()).as(keys[i]).isEqualTo(201);
            assertThat(reply.body()).hasSize(BODY_BYTES);
        }
        return keys;
    }

    private static Reply post(HttpCalls http, String key) {
        return http.postKeyed("api/blobs?size=" + BODY_BYTES, "{}", key, key);
    }

    private static boolean replayed(HttpCalls http, String key) {
        return "true".equals(post(http, key).header("Idempotency-Replayed"));
    }

    private static long retainedHeap(HttpCalls http) {
        return Long.parseLong(http.get("api/heap").text().trim());
    }
}
