package io.idemkit.it.client.restclient;

import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.IdempotentOperations;
import io.idemkit.client.IdempotentRetry;
import io.idemkit.client.RetryOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.rest.client.RestClientBuilder;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** The calling application, through a Rest Client built for the server's own base URI. */
@ApplicationScoped
public class RestCheckout {

    /** What a call came to: the status (200 for an entity), the attempts, whether replayed. */
    public record Result(int status, int attempts, boolean replayed) {}

    @Inject IdempotentRetry retry;
    @Inject @RestClient Instance<ConfiguredChargesClient> configured;

    /**
     * @return a Rest Client for the API at {@code base}, with the feature (its {@code
     *     RegisterProvider}), giving up reading after {@code readTimeoutSeconds}
     */
    static ChargesClient at(URI base, int readTimeoutSeconds) {
        return RestClientBuilder.newBuilder()
                .baseUri(base)
                .readTimeout(readTimeoutSeconds, TimeUnit.SECONDS)
                .build(ChargesClient.class);
    }

    @IdempotentOperation
    public Result charge(URI base, String kind, String tag) {
        ChargesClient charges = at(base, 1);
        try {
            RetryOutcome<String> outcome =
                    retry.callForOutcome(() -> charges.charge(kind, tag, "{\"amount\":1999}"));
            return new Result(200, outcome.attempts(), outcome.replayed());
        } catch (WebApplicationException e) {
            return new Result(e.getResponse().getStatus(), 0, false);
        }
    }

    /**
     * A call whose key the Rest Client's {@code @ClientHeaderParam} makes anew for each request,
     * retried (C14.4).
     *
     * @return the failure the caller saw, its causes' class names from the outside in, or the
     *     status when the call ended in an answer
     */
    @IdempotentOperation
    public String chargeWithFreshKeys(URI base, String kind, String tag) {
        ChargesClient charges = at(base, 10);
        try {
            retry.call(() -> charges.chargeWithFreshKey(kind, tag, "{\"amount\":1999}"));
            return "status 200";
        } catch (WebApplicationException e) {
            return "status " + e.getResponse().getStatus();
        } catch (RuntimeException e) {
            StringBuilder chain = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                chain.append(t.getClass().getName()).append('\n');
            }
            return chain.toString();
        }
    }

    /**
     * The same call twice in one named operation: first through a {@code CompletionStage} method,
     * which the Rest Client sends on another thread, then synchronously. Both carry the operation's
     * key (C14.8), so the server runs the charge once and replays it to the second.
     */
    public void asyncThenSync(URI base, String kind, String tag) throws Exception {
        ChargesClient charges = at(base, 10);
        String operation = "async-" + tag;
        IdempotentOperations.call(
                operation,
                () ->
                        charges.chargeAsync(kind, tag, "{}")
                                .toCompletableFuture()
                                .get(20, TimeUnit.SECONDS));
        IdempotentOperations.call(operation, () -> charges.charge(kind, tag, "{}"));
    }

    /** A call through a Rest Client whose feature comes from configuration, retried. */
    @IdempotentOperation
    public Result chargeConfigured(URI base, String kind, String tag) {
        SelfUrlConfigSource.SELF.set(base.toString());
        ConfiguredChargesClient charges = configured.get();
        try {
            RetryOutcome<String> outcome =
                    retry.callForOutcome(() -> charges.charge(kind, tag, "{\"amount\":1999}"));
            return new Result(200, outcome.attempts(), outcome.replayed());
        } catch (WebApplicationException e) {
            return new Result(e.getResponse().getStatus(), 1, false);
        } finally {
            configured.destroy(charges);
        }
    }
}
