package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which requests the client filter keys, and how (C14.4), through a real Jersey client. */
class KeyHeaderTest {

    private final ScriptedServer server = new ScriptedServer();
    private Client client;

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private WebTarget target(ClientSettings settings) {
        client = server.client(settings);
        return client.target("http://payments.example/api/payments");
    }

    private WebTarget target() {
        return target(ClientSettings.defaults());
    }

    @Test
    void postAndPatch_getAKey_safeMethodsPutAndDeleteDoNot() {
        WebTarget target = target();
        IdempotentOperations.run(
                () -> {
                    target.request().post(Entity.text("a")).close();
                    target.request().method("PATCH", Entity.text("a")).close();
                    target.request().get().close();
                    target.request().head().close();
                    target.request().put(Entity.text("a")).close();
                    target.request().delete().close();
                });

        assertThat(server.sent())
                .extracting(ScriptedServer.Sent::method, s -> s.key() != null)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("POST", true),
                        org.assertj.core.groups.Tuple.tuple("PATCH", true),
                        org.assertj.core.groups.Tuple.tuple("GET", false),
                        org.assertj.core.groups.Tuple.tuple("HEAD", false),
                        org.assertj.core.groups.Tuple.tuple("PUT", false),
                        org.assertj.core.groups.Tuple.tuple("DELETE", false));
    }

    @Test
    void putAndDelete_getAKey_whenConfigured() {
        WebTarget target =
                target(ClientSettings.defaults().withMethods(Set.of("POST", "PUT", "DELETE")));
        target.request().put(Entity.text("a")).close();
        target.request().delete().close();
        target.request().method("PATCH", Entity.text("a")).close();

        assertThat(server.sent())
                .extracting(s -> s.key() != null)
                .containsExactly(true, true, false);
    }

    @Test
    void aKeyTheCallerSet_isNeverReplaced_inAnySpelling() {
        WebTarget target = target();
        IdempotentOperations.run(
                () -> {
                    target.request()
                            .header("Idempotency-Key", "mine-1")
                            .post(Entity.text("a"))
                            .close();
                    target.request()
                            .header("idempotency-key", "mine-2")
                            .post(Entity.text("a"))
                            .close();
                });

        assertThat(server.keys()).containsExactly("mine-1", "mine-2");
    }

    @Test
    void aKeyTheCallerSet_doesNotShiftTheNumberingOfTheOthers() {
        WebTarget target = target();
        String operation = "order-7/charge";
        IdempotentOperations.run(
                operation,
                () -> {
                    target.request()
                            .header("Idempotency-Key", "mine")
                            .post(Entity.text("a"))
                            .close();
                    target.request().post(Entity.text("a")).close();
                });

        assertThat(server.keys().get(1))
                .isEqualTo(
                        RequestKeys.derive(
                                operation.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                "POST",
                                "/api/payments",
                                1));
    }

    @Test
    void anotherHeaderName_carriesTheKey() {
        ScriptedServer other = new ScriptedServer("X-Request-Key");
        client = other.client(ClientSettings.defaults().withKeyHeader("X-Request-Key"));
        client.target("http://h/x").request().post(Entity.text("a")).close();

        assertThat(other.keys()).singleElement().asString().hasSize(43);
    }

    @Test
    void outsideAnOperation_eachRequestGetsAFreshKey() {
        WebTarget target = target();
        target.request().post(Entity.text("a")).close();
        target.request().post(Entity.text("a")).close();

        assertThat(server.keys()).doesNotContainNull().doesNotHaveDuplicates().hasSize(2);
    }

    @Test
    void outsideAnOperation_noKey_whenSwitchedOff() {
        WebTarget target = target(ClientSettings.defaults().withKeyWithoutOperation(false));
        target.request().post(Entity.text("a")).close();

        assertThat(server.keys()).containsExactly((String) null);
    }

    @Test
    void theReplayHeader_inEitherSpelling_isSetAsARequestPropertyForLaterFilters() {
        AtomicReference<Object> seen = new AtomicReference<>();
        ClientResponseFilter later =
                (ClientRequestContext request, ClientResponseContext response) ->
                        seen.set(request.getProperty(IdempotentResponses.REPLAYED_PROPERTY));
        server.then(() -> Response.status(201).header("Idempotent-Replayed", "true").build());
        client = server.client(ClientSettings.defaults());
        client.register(later, 100);

        Response response = client.target("http://h/x").request().post(Entity.text("a"));

        assertThat(seen.get()).isEqualTo(Boolean.TRUE);
        assertThat(IdempotentResponses.isReplay(response)).isTrue();
    }
}
