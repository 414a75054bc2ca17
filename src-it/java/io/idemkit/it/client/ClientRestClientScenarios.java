package io.idemkit.it.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.idemkit.it.client.app.ChargesResource;
import io.idemkit.it.client.app.ClientApplication;
import io.idemkit.it.client.restclient.ConfiguredChargesClient;
import io.idemkit.it.client.restclient.RestCheckout;
import io.idemkit.it.client.restclient.SelfUrlConfigSource;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ResponseDroppingProxy;
import io.idemkit.it.harness.TestPorts;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client half through a MicroProfile Rest Client (C14.3, C14.4, C14.5, C14.8), on every runtime
 * that has one: the feature registered with {@code @RegisterProvider} or by configuration, a method
 * that returns an entity (a 503 arrives as a {@code WebApplicationException}, a replay is seen only
 * through {@code RetryOutcome}), a method that returns a {@code CompletionStage}, and MicroProfile
 * Fault Tolerance's {@code @Retry} around the call, over a proxy that drops a response after the
 * server processed the request.
 */
abstract class ClientRestClientScenarios extends ClientItSupport {

    ResponseDroppingProxy proxy;

    /**
     * @param more what a runtime's WAR adds
     * @param config more lines of its configuration
     */
    static WebArchive restWar(String name, UnaryOperator<WebArchive> more, String config) {
        return war(
                        name,
                        war ->
                                more.apply(
                                        war.addClasses(
                                                        ClientApplication.class,
                                                        ChargesResource.class)
                                                .addPackage(RestCheckout.class.getPackage())),
                        ConfiguredChargesClient.CONFIG + config)
                .addAsResource(
                        new StringAsset(SelfUrlConfigSource.class.getName()),
                        "META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource");
    }

    @BeforeEach
    void startProxy() throws Exception {
        proxy = new ResponseDroppingProxy(base().getPort());
    }

    @AfterEach
    void stopProxy() throws Exception {
        proxy.close();
    }

    @Test
    void a503_thrownAsAnException_isRetried_withTheSameKey() {
        JsonObject result = drive("rest-drive/flaky");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertBothAttemptsSentOneKey_underWhichTheChargeRanOnce();
    }

    /**
     * The 503's {@code Retry-After: 1} is waited out, though a Rest Client's exception may have
     * lost the header (Liberty's did: the retry came after the back-off's 100-200 ms).
     */
    @Test
    void a503sRetryAfter_isWaitedOut_onTheRestClientPath() {
        drive("rest-drive/flaky");

        assertThat(gaps("flaky"))
                .as("ms between the 503's run and the retry's")
                .singleElement()
                .satisfies(gap -> assertThat(gap).isGreaterThanOrEqualTo(950L));
    }

    /**
     * A {@code Retry-After} past {@code max-delay} (10 s) ends the retries: one attempt (Liberty's
     * Rest Client made four in about a second).
     */
    @Test
    void a503sRetryAfterPastMaxDelay_endsTheRetries_onTheRestClientPath() {
        JsonObject result = drive("rest-drive/overloaded");

        assertThat(result.getInt("status")).isEqualTo(503);
        assertThat(runs("overloaded")).as("attempts that reached the server").isEqualTo(1);
    }

    @Test
    void aReadTimeout_isRetried_andTheReplayIsReported() {
        JsonObject result = drive("rest-drive/slow");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getBoolean("replayed")).isTrue();
        assertThat(runs("slow")).isEqualTo(1);
    }

    @Test
    void a422_reachesTheCaller_unretried() {
        JsonObject result = drive("rest-drive/refused");

        assertThat(result.getInt("status")).isEqualTo(422);
        assertThat(runs("refused")).isEqualTo(1);
    }

    /**
     * A key the caller sets through the Rest Client's {@code @ClientHeaderParam}, computed anew for
     * each request (C14.4): the 503's retry would go out under a new key, a new charge to the
     * server. It is stopped before it is sent with the library's own error, and the server ran the
     * request once (the 503). Before, the retry's new key ran the charge again.
     */
    @Test
    void aClientHeaderParamKeyMadeAnewPerRequest_isStopped_beforeTheServerRunsItAgain() {
        String outcome = drive("rest-drive/fresh-keys/flaky").getString("outcome");

        assertThat(outcome.lines())
                .as("the failure the caller saw, and its causes")
                .contains("io.idemkit.client.IdempotencyKeyChangedException");
        assertThat(runs("flaky")).as("runs: the 503 only").isEqualTo(1);
        assertThat(keys("flaky")).singleElement().isNotEqualTo("null");
    }

    @Test
    void theFeatureRegisteredByConfiguration_keysTheCall_soA503IsRetried() {
        // Without the feature the attempt sent nothing keyed, and is not repeated: one 503.
        JsonObject result = drive("rest-drive/configured/flaky");

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getInt("attempts")).isEqualTo(2);
        assertBothAttemptsSentOneKey_underWhichTheChargeRanOnce();
    }

    /**
     * After a call to {@code flaky} retried once: both attempts reached the resource (its 503 is
     * not stored, so the retry runs it again) with one key (C14.3), and the run that succeeded is
     * stored under that key, so the charge ran once: the same request sent again with it is a
     * replay, not a third run. A retry with a new key would also run twice and succeed; only the
     * keys tell it apart.
     */
    private void assertBothAttemptsSentOneKey_underWhichTheChargeRanOnce() {
        List<String> keys = keys("flaky");
        assertThat(keys).as("the key of each run").hasSize(2);
        assertThat(keys.get(0)).isNotBlank().isNotEqualTo("null");
        assertThat(keys).as("the key of each run").containsOnly(keys.get(0));

        Reply again = http.postKeyed("api/charges/flaky", "{\"amount\":1999}", keys.get(0), tag);
        assertThat(again.status()).as(again.text()).isEqualTo(201);
        assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(runs("flaky")).as("runs: the 503, then the charge").isEqualTo(2);
    }

    @Test
    void aCompletionStageCall_carriesTheOperationsKey_soTheSameCallAfterItIsAReplay() {
        // Sent on the Rest Client's thread without the operation, it would get a fresh key, and
        // the synchronous call after it, with the operation's key, would run the charge again.
        drive("rest-drive/async-then-sync/once");

        assertThat(runs("once")).isEqualTo(1);
    }

    @Test
    void aSecondOperation_getsANewKey_andTheServerRunsItAgain() {
        drive("rest-drive/ft/once/via/" + proxy.port());
        drive("rest-drive/ft/once/via/" + proxy.port());

        List<ResponseDroppingProxy.Seen> sent = proxy.seen(tag);
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).key()).isNotBlank().isNotEqualTo(sent.get(1).key());
        assertThat(runs("once")).isEqualTo(2);
    }

    /**
     * The runtime's own Fault Tolerance, {@code @Asynchronous @Timeout @Retry}, attempt 1 slow to
     * send: the retry's charge and attempt 1's late one carry one key, and the server runs the
     * charge once. Before, attempt 1's late charge took the next number: a new key, a second
     * charge.
     */
    @Test
    void asynchronousTimeoutRetry_theLateFirstChargeAndTheRetrysCarryOneKey() {
        JsonObject result = drive("rest-drive/ft-slow-to-send/via/" + proxy.port());

        assertThat(result.getInt("attempts")).isEqualTo(2);
        await().atMost(Duration.ofSeconds(20)).until(() -> proxy.seen(tag).size() == 2);
        List<ResponseDroppingProxy.Seen> sent = proxy.seen(tag);
        assertThat(sent.get(0).key()).isNotBlank();
        assertThat(sent)
                .as("the retry's charge, then attempt 1's late one")
                .extracting(ResponseDroppingProxy.Seen::key)
                .containsOnly(sent.get(0).key());
        await().atMost(Duration.ofSeconds(20))
                .untilAsserted(() -> assertThat(runs("once")).isEqualTo(1));
    }

    @Test
    void faultTolerancesRetry_afterADroppedResponse_sendsTheSameKey_andTheServerRunsItOnce() {
        // Two drops: the transport may send a POST again once by itself, with the same headers.
        proxy.dropNextResponses(2);

        JsonObject result = drive("rest-drive/ft/once/via/" + proxy.port());

        assertThat(result.getInt("status")).isEqualTo(200);
        assertThat(result.getInt("attempts")).isGreaterThanOrEqualTo(2);
        List<ResponseDroppingProxy.Seen> sent = proxy.seen(tag);
        assertThat(sent).hasSize(3);
        assertThat(sent.get(0).key()).isNotBlank();
        assertThat(sent)
                .extracting(ResponseDroppingProxy.Seen::key)
                .containsOnly(sent.get(0).key());
        assertThat(runs("once")).isEqualTo(1);
        // The answer the caller got is the stored result of the run whose answer was dropped.
        assertThat(sent.get(2).answeredWithReplay()).isTrue();
    }

    /**
     * Twenty async operations at once on the runtime's managed executor, each sending one call that
     * fails (nobody listens), then twenty plain calls on the same executor's threads: not one
     * carries a key (C14.8). The plain calls' client keys nothing outside an operation, so a key
     * could only come from an operation a pooled thread kept; a kept named operation would hand its
     * keys to a later run of the same name.
     */
    @Test
    void failedAsyncOperationsOnTheManagedExecutor_leaveNoKeyOnItsThreads() {
        JsonObject result = drive("rest-drive/pooled/dead/" + TestPorts.next());

        assertThat(result.getInt("failedSends")).isEqualTo(20);
        assertThat(result.getInt("keyedFailedSends"))
                .as("failed sends that carried their operation's key to the pooled thread")
                .isEqualTo(20);
        Set<String> failedOn = names(result.getJsonArray("failedOn"));
        Set<String> plainOn = names(result.getJsonArray("plainOn"));
        assertThat(plainOn)
                .as("threads that sent a plain call after sending a failed one (of %s)", failedOn)
                .containsAnyElementsOf(failedOn);
        assertThat(runs("echo")).isEqualTo(20);
        assertThat(keys("echo")).as("the key of each plain call").hasSize(20).containsOnly("null");
    }

    private static Set<String> names(JsonArray names) {
        return names.getValuesAs(JsonString.class).stream()
                .map(JsonString::getString)
                .collect(Collectors.toSet());
    }
}
