package io.idemkit.http;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.hash.BodySelection;
import io.idemkit.policy.ConfigLookup;
import io.idemkit.policy.HttpKeyResolution;
import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.SecurityContext;
import java.lang.System.Logger.Level;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where one endpoint's key comes from and which of its request headers and body fields enter the
 * fingerprint (C6.1, C6.9, C6.11), resolved on first use from the endpoint's {@code @Idempotent}
 * members and per-method keys over the global ones ({@link HttpKeyResolution}), with the {@link
 * IdempotencyKeyExtractor} bean the policy names, if it names one. The deployment checked every
 * value already. Thread-safe.
 */
final class EndpointKeys {

    private static final System.Logger LOG = System.getLogger(EndpointKeys.class.getName());

    private final Endpoint endpoint;
    private volatile HttpKeyPolicy policy;
    private volatile IdempotencyKeyExtractor extractor;
    private volatile boolean warnedOfFailure;
    private volatile BodySelection selection;
    private volatile boolean warnedOfNoField;

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
                        HttpKeyResolution.forMethod(
                                ConfigLookup.current(),
                                endpoint.resourceClass(),
                                endpoint.method(),
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
            parts.add(name + ":" + String.join(",", headerValues(request, name)));
        }
        return parts;
    }

    /**
     * The body as the fingerprint takes it (C6.11): the endpoint's named fields when it names some
     * and the body is a JSON object, hashed as an opaque body like the reference's {@code
     * body_fingerprint} bytes; otherwise the body itself, canonicalized by its content type (C6.9).
     *
     * @param body the body bytes, decoded from gzip
     * @param contentType the request's {@code Content-Type}, or {@code null}
     */
    FingerprintedBody fingerprintedBody(IdemkitConfig config, byte[] body, String contentType) {
        BodySelection fields = selection;
        if (fields == null) {
            fields = policy(config).bodySelection();
            selection = fields;
        }
        Optional<BodySelection.Selected> selected = fields.select(body);
        if (selected.isEmpty()) {
            return new FingerprintedBody(body, contentType);
        }
        if (selected.get().found() == 0 && !warnedOfNoField) {
            warnedOfNoField = true;
            LOG.log(
                    Level.WARNING,
                    "idemkit found none of the fingerprint fields of "
                            + endpoint
                            + " ("
                            + fields
                            + ") in a request's JSON body: the fingerprint of such a request"
                            + " leaves out all its body, so the same key with another body is"
                            + " replayed. Check the field names (C6.11; said once per endpoint).");
        }
        return new FingerprintedBody(selected.get().canonical(), null);
    }

    /**
     * The body part of a fingerprint.
     *
     * @param bytes the bytes
     * @param contentType how to canonicalize them, or {@code null} for as they are
     */
    record FingerprintedBody(byte[] bytes, String contentType) {}

    /**
     * @return every value of the header {@code name}, matched by any case: a runtime's header map
     *     usually ignores it, but need not
     */
    private static List<String> headerValues(ContainerRequestContext request, String name) {
        List<String> values = new ArrayList<>();
        request.getHeaders()
                .forEach(
                        (header, list) -> {
                            if (header.equalsIgnoreCase(name)) {
                                values.addAll(list);
                            }
                        });
        return values;
    }

    /**
     * @param policy the endpoint's policy, which names an extractor
     * @param body the body as fingerprinted, or empty when it exceeds the request cap
     * @return the key the endpoint's extractor takes from {@code request}; empty when it finds none
     *     or throws (logged once per endpoint, by the exception's class only, never its message)
     * @throws IdempotencyKeyMissingException when the key breaks the header's rules
     */
    Optional<String> extracted(
            HttpSurface surface,
            HttpKeyPolicy policy,
            ContainerRequestContext request,
            Optional<byte[]> body) {
        IdempotencyKeyExtractor chosen = extractor;
        if (chosen == null) {
            chosen = surface.keyExtractorOf(endpoint, policy.keyExtractor().orElseThrow());
            extractor = chosen;
        }
        Optional<String> key;
        try {
            key = chosen.keyOf(new ExtractorRequest(request, body));
        } catch (RuntimeException e) {
            if (!warnedOfFailure) {
                warnedOfFailure = true;
                LOG.log(
                        Level.WARNING,
                        "idemkit's key extractor "
                                + policy.keyExtractor().orElseThrow()
                                + " threw "
                                + e.getClass().getName()
                                + " on a request to "
                                + endpoint
                                + ": such requests count as unkeyed (logged once per endpoint)");
            }
            return Optional.empty();
        }
        if (key == null || key.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(IdempotencyKeyHeader.check(key.get()));
    }

    /** What an extractor reads of one request. */
    private record ExtractorRequest(ContainerRequestContext request, Optional<byte[]> bytes)
            implements IdempotencyKeyExtractor.Request {

        @Override
        public String method() {
            return request.getMethod().toUpperCase(Locale.ROOT);
        }

        @Override
        public List<String> headers(String name) {
            return headerValues(request, name);
        }

        @Override
        public Optional<byte[]> body() {
            return bytes.map(byte[]::clone);
        }

        @Override
        public Optional<Principal> principal() {
            SecurityContext security = request.getSecurityContext();
            return Optional.ofNullable(security == null ? null : security.getUserPrincipal());
        }
    }
}
