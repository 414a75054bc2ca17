package io.idemkit.it.client.app;

import io.idemkit.client.IdempotencyClientFeature;
import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.IdempotentResponses;
import io.idemkit.client.IdempotentRetry;
import io.idemkit.client.RetryOutcome;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The calling application: an {@code @IdempotentOperation} bean whose JAX-RS client carries the
 * feature, retrying through the injected executor.
 */
@ApplicationScoped
public class Checkout {

    /** What a call came to, as the test reads it. */
    public record Result(int status, int attempts, boolean replayed, String body) {}

    private final Client client =
            ClientBuilder.newBuilder()
                    .register(IdempotencyClientFeature.class)
                    .readTimeout(1, TimeUnit.SECONDS)
                    .build();

    @Inject IdempotentRetry retry;

    @IdempotentOperation
    public Result charge(URI base, String path, String tag) {
        RetryOutcome<Response> outcome =
                retry.callForOutcome(
                        () ->
                                client.target(base)
                                        .path("charges")
                                        .path(path)
                                        .request()
                                        .header(ChargesResource.TAG, tag)
                                        .post(Entity.json("{\"amount\":1999}")));
        try (Response response = outcome.value()) {
            return new Result(
                    response.getStatus(),
                    outcome.attempts(),
                    outcome.replayed() && IdempotentResponses.isReplay(response),
                    response.hasEntity() ? response.readEntity(String.class) : "");
        }
    }

    /**
     * Two calls in one operation, retried together: the first is replayed with its own key when the
     * second fails and the whole is run again.
     */
    @IdempotentOperation
    public Result chargeAndShip(URI base, String tag) {
        RetryOutcome<Response> outcome =
                retry.callForOutcome(
                        () -> {
                            try (Response charge =
                                    client.target(base)
                                            .path("charges/once")
                                            .request()
                                            .header(ChargesResource.TAG, tag)
                                            .post(Entity.json("{}"))) {
                                charge.getStatus();
                            }
                            return client.target(base)
                                    .path("charges/shipments")
                                    .request()
                                    .header(ChargesResource.TAG, tag)
                                    .post(Entity.json("{}"));
                        });
        try (Response response = outcome.value()) {
            return new Result(response.getStatus(), outcome.attempts(), outcome.replayed(), "");
        }
    }

    /**
     * The caller's own key, made inside the retried call as a new UUID: every attempt's key is new
     * (C14.4).
     *
     * @return the failure the caller saw, its causes' class names from the outside in, or the
     *     status when the call ended in an answer
     */
    @IdempotentOperation
    public String chargeWithFreshKeys(URI base, String path, String tag) {
        try {
            RetryOutcome<Response> outcome =
                    retry.callForOutcome(
                            () ->
                                    client.target(base)
                                            .path("charges")
                                            .path(path)
                                            .request()
                                            .header(ChargesResource.TAG, tag)
                                            .header("Idempotency-Key", UUID.randomUUID().toString())
                                            .post(Entity.json("{\"amount\":1999}")));
            try (Response response = outcome.value()) {
                return "status " + response.getStatus();
            }
        } catch (RuntimeException e) {
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(t.getClass().getName()).append('\n');
            }
            return chain.toString();
        }
    }

    @PreDestroy
    void close() {
        client.close();
    }
}
