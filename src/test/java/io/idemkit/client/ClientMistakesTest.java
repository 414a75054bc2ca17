package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.ResponseProcessingException;
import jakarta.ws.rs.core.Response;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.charset.MalformedInputException;
import java.time.Clock;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's mistakes said plainly, and failures classed by what they are (C14.1, C14.5). */
class ClientMistakesTest {

    private final ScriptedServer server = new ScriptedServer();
    private final Client client = server.client();
    private final TestDeployment deployment = new TestDeployment();
    private final ClientSettings settings = ClientSettings.defaults();

    @AfterEach
    void tearDown() {
        deployment.close();
        client.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private Response charge() {
        return client.target("http://shop.example/api/charges").request().post(Entity.json("{}"));
    }

    @Test
    void anInterruptDuringTheBackOff_returnsTheLastResponseReadable() {
        server.then(() -> Response.status(503).entity("busy").build());
        IdempotentRetry retry =
                new IdempotentRetry(
                        settings,
                        Clock.systemUTC(),
                        d -> {
                            throw new InterruptedException();
                        },
                        new RetryPolicy(settings, () -> 0.5));
        try {
            RetryOutcome<Response> outcome = retry.callForOutcome(this::charge);

            assertThat(outcome.value().getStatus()).isEqualTo(503);
            assertThat(outcome.value().readEntity(String.class)).isEqualTo("busy");
            assertThat(outcome.reason()).startsWith("an interrupt");
        } finally {
            assertThat(Thread.interrupted()).as("left interrupted").isTrue();
        }
    }

    @Test
    void aMappingErrorOnAnAnswerThatCame_isNotTransient_butAConnectionLostMidBodyIs() {
        assertThat(
                        TransientFailures.isTransient(
                                new ResponseProcessingException(
                                        Response.ok().build(),
                                        new IOException("Unexpected character ('<')"))))
                .isFalse();
        assertThat(
                        TransientFailures.isTransient(
                                new ProcessingException(new MalformedInputException(1))))
                .isFalse();
        assertThat(
                        TransientFailures.isTransient(
                                new ResponseProcessingException(
                                        Response.ok().build(),
                                        new SocketException("Connection reset"))))
                .isTrue();
    }

    @Test
    void aResetDuringTheTlsHandshake_isTransient_butARefusedCertificateIsNot() {
        SSLHandshakeException reset = new SSLHandshakeException("Remote host terminated");
        reset.initCause(new EOFException("SSL peer shut down incorrectly"));
        SSLHandshakeException refused = new SSLHandshakeException("PKIX path building failed");
        refused.initCause(new java.security.cert.CertificateException("unable to find valid path"));

        assertThat(TransientFailures.isTransient(new ProcessingException(reset))).isTrue();
        assertThat(TransientFailures.isTransient(new ProcessingException(refused))).isFalse();
    }

    @Test
    void anOperationKeyWithoutAToStringOfItsOwn_isRefused_andTheMethodDoesNotRun() {
        deployment.set("idemkit.store", "memory").set("idemkit.scope-mode", "single-tenant");
        OperationBeans.base = client.target("http://shop.example/api");
        var weld = deployment.start(ByObject.class);

        assertThatThrownBy(() -> weld.select(ByObject.class).get().place(new Object()))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("no toString() of its own");
        assertThat(server.keys()).isEmpty();
    }

    @Test
    void idempotentRetryInsideARepeatedAttempt_warnsThatAttemptsMultiply() {
        IdempotentRetry retry =
                new IdempotentRetry(
                        settings, Clock.systemUTC(), d -> {}, new RetryPolicy(settings, () -> 0.5));
        try (CapturedLog log = CapturedLog.of("io.idemkit");
                OperationScope op = IdempotentOperations.open()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                op.attempt(() -> retry.call(this::charge)).close();
            }

            assertThat(log.warnings()).anyMatch(w -> w.contains("attempts multiply"));
        }
    }

    @Test
    void aStreamBodyMadeOutsideTheRetriedCall_isNotSentAgainSpent() throws Exception {
        try (LoopbackServer http = new LoopbackServer();
                Client keyed = LoopbackServer.keyedClient()) {
            http.then(LoopbackServer.status(503));
            IdempotentRetry retry =
                    new IdempotentRetry(
                            settings,
                            Clock.systemUTC(),
                            d -> {},
                            new RetryPolicy(settings, () -> 0.5));
            java.io.InputStream body =
                    new java.io.ByteArrayInputStream(
                            "{\"amount\":1999}".getBytes(java.nio.charset.StandardCharsets.UTF_8));

            assertThatThrownBy(
                            () ->
                                    retry.call(
                                            () ->
                                                    keyed.target(http.uri("/api/charges"))
                                                            .request()
                                                            .post(
                                                                    Entity.entity(
                                                                            body,
                                                                            "application/json"))))
                    .isInstanceOf(ProcessingException.class)
                    .hasRootCauseInstanceOf(IllegalStateException.class)
                    .hasStackTraceContaining("already sent");
            assertThat(http.keys()).hasSize(1);
        }
    }

    @ApplicationScoped
    public static class ByObject {
        @IdempotentOperation
        public void place(@OperationKey Object order) {
            OperationBeans.base.path("orders").request().post(Entity.json("{}")).close();
        }
    }
}
