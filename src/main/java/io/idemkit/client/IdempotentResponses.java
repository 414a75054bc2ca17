package io.idemkit.client;

import io.idemkit.IdempotencyWire;
import jakarta.ws.rs.core.Response;
import java.util.Objects;
import java.util.function.Function;

/** What a response says about idempotency (C14.6). Stateless. */
public final class IdempotentResponses {

    /** The server's replay header (C6.2). */
    public static final String REPLAYED = IdempotencyWire.REPLAYED_HEADER;

    /** The same header as Stripe spells it, which {@code compat-mode=stripe} sends (C6.4). */
    public static final String STRIPE_REPLAYED = IdempotencyWire.STRIPE_REPLAYED_HEADER;

    /**
     * The request property, a {@link Boolean}, that says whether the response was a replay: set on
     * the request context for the application's own client response filters that run after
     * idemkit's (a lower priority than {@link IdempotencyClientFeature#PRIORITY}).
     */
    public static final String REPLAYED_PROPERTY = "io.idemkit.client.replayed";

    /** The request property, {@link Boolean#TRUE}, that says idemkit put the key on the request. */
    public static final String KEYED_PROPERTY = "io.idemkit.client.keyed";

    private IdempotentResponses() {}

    /**
     * @param response a response
     * @return whether it is a stored response replayed by the server, by either spelling of the
     *     replay header
     */
    public static boolean isReplay(Response response) {
        Objects.requireNonNull(response, "response");
        return isReplay(response::getHeaderString);
    }

    static boolean isReplay(Function<String, String> header) {
        return "true".equalsIgnoreCase(trim(header.apply(REPLAYED)))
                || "true".equalsIgnoreCase(trim(header.apply(STRIPE_REPLAYED)));
    }

    private static String trim(String value) {
        return value == null ? null : value.strip();
    }
}
