package io.idemkit.client;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.core.Feature;
import jakarta.ws.rs.core.FeatureContext;
import java.time.Clock;
import java.util.Objects;

/**
 * Sends an {@code Idempotency-Key} with a JAX-RS client's unsafe requests (C14.4): register it on a
 * client, or on a MicroProfile Rest Client interface.
 *
 * <pre>{@code
 * Client client = ClientBuilder.newBuilder().register(IdempotencyClientFeature.class).build();
 *
 * @RegisterRestClient(configKey = "payments")
 * @RegisterProvider(IdempotencyClientFeature.class)
 * public interface PaymentsClient { ... }
 * }</pre>
 *
 * <p>A request of a keyed method ({@code idemkit.client.methods}, {@code POST} and {@code PATCH} by
 * default) gets a key derived from the operation open on the sending thread (C14.2), or a fresh key
 * of its own outside every operation; a request that already carries the header keeps the caller's
 * key. Responses are read for the replay header and the key's expiry (C14.6). The feature never
 * sends a request again: that is {@link IdempotentRetry}'s job (C14.5).
 *
 * <p>Registered by class, it reads its settings from MicroProfile Config when the client is built
 * ({@link ClientSettings#fromConfig()}). Thread-safe.
 */
public final class IdempotencyClientFeature implements Feature {

    /**
     * The filter's priority: {@code Priorities.AUTHENTICATION - 100} (900), so that a filter that
     * signs the request's headers (at {@code AUTHENTICATION} or later) signs the key too.
     */
    public static final int PRIORITY = Priorities.AUTHENTICATION - 100;

    private final ClientSettings settings;
    private final Clock clock;

    /** Reads its settings from MicroProfile Config when a client is configured with it. */
    public IdempotencyClientFeature() {
        this(null, Clock.systemUTC());
    }

    /**
     * @param settings the settings, such as {@code ClientSettings.defaults().withKeyHeader(...)}
     */
    public IdempotencyClientFeature(ClientSettings settings) {
        this(Objects.requireNonNull(settings, "settings"), Clock.systemUTC());
    }

    IdempotencyClientFeature(ClientSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public boolean configure(FeatureContext context) {
        if (context.getConfiguration().isRegistered(IdempotencyKeyFilter.class)) {
            return false;
        }
        ClientSettings effective = settings != null ? settings : ClientSettings.fromConfig();
        context.register(new IdempotencyKeyFilter(effective, clock), PRIORITY);
        return true;
    }
}
