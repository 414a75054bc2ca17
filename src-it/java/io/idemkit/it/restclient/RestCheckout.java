package io.idemkit.it.restclient;

import io.idemkit.client.IdempotentOperation;
import io.idemkit.client.IdempotentRetry;
import io.idemkit.client.RetryOutcome;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.WebApplicationException;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.rest.client.RestClientBuilder;

/** The calling application, through a Rest Client built for the server's own base URI. */
@ApplicationScoped
public class RestCheckout {

    /** What a call came to: the status (200 for an entity), the attempts, whether replayed. */
    public record Result(int status, int attempts, boolean replayed) {}

    @Inject IdempotentRetry retry;

    @IdempotentOperation
    public Result charge(URI base, String kind, String tag) {
        ChargesClient charges =
                RestClientBuilder.newBuilder()
                        .baseUri(base)
                        .readTimeout(1, TimeUnit.SECONDS)
                        .build(ChargesClient.class);
        try {
            RetryOutcome<String> outcome =
                    retry.callForOutcome(() -> charges.charge(kind, tag, "{\"amount\":1999}"));
            return new Result(200, outcome.attempts(), outcome.replayed());
        } catch (WebApplicationException e) {
            return new Result(e.getResponse().getStatus(), 0, false);
        }
    }
}
