package io.idemkit.http;

import io.idemkit.Idempotent;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.config.IdemkitConfig;
import jakarta.ws.rs.container.ContainerRequestContext;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Where one endpoint's key comes from and which of its request headers enter the fingerprint (C6.1,
 * C6.9), resolved on first use from the endpoint's {@code @Idempotent} members and per-method keys
 * over the global ones ({@link HttpKeyPolicy}). The deployment checked every value already.
 * Thread-safe.
 */
final class EndpointKeys {

    private static final System.Logger LOG = System.getLogger(EndpointKeys.class.getName());

    private final Endpoint endpoint;
    private volatile HttpKeyPolicy policy;

    EndpointKeys(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * @param config the application's configuration, for the global values
     * @return the endpoint's key header and fingerprinted headers
     */
    HttpKeyPolicy policy(IdemkitConfig config) {
        HttpKeyPolicy resolved = policy;
        if (resolved == null) {
            HttpKeyPolicy defaults = config.keyDefaults();
            try {
                resolved =
                        HttpKeyPolicy.resolve(
                                ConfigProvider.getConfig(),
                                endpoint.resourceClass().getName(),
                                endpoint.method().getName(),
                                endpoint.resourceClass().getAnnotation(Idempotent.class),
                                endpoint.method().getAnnotation(Idempotent.class),
                                defaults);
            } catch (IllegalArgumentException e) {
                // A resource class no deployment check saw (outside every bean archive).
                LOG.log(
                        Level.WARNING,
                        "idemkit ignores the key settings of " + endpoint + ": " + e.getMessage());
                resolved = defaults;
            }
            policy = resolved;
        }
        return resolved;
    }

    /**
     * @return {@code name:value} of every fingerprinted header of {@code request}, in the policy's
     *     order; an absent header counts as empty
     */
    List<String> fingerprinted(IdemkitConfig config, ContainerRequestContext request) {
        List<String> names = policy(config).fingerprintHeaders();
        if (names.isEmpty()) {
            return List.of();
        }
        List<String> parts = new ArrayList<>(names.size());
        for (String name : names) {
            // By any case: a runtime's header map usually ignores it, but need not.
            List<String> values = new ArrayList<>();
            request.getHeaders()
                    .forEach(
                            (header, list) -> {
                                if (header.equalsIgnoreCase(name)) {
                                    values.addAll(list);
                                }
                            });
            parts.add(name + ":" + String.join(",", values));
        }
        return parts;
    }
}
