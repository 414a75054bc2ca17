package io.idemkit.admin.http;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.admin.IdempotencyAdmin;
import io.idemkit.admin.IdempotencyAdmin.RecordInfo;
import io.idemkit.core.AuthenticatedName;
import io.idemkit.http.ProblemResponses;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The admin API, under {@value #PREFIX} in the JAX-RS application:
 *
 * <ul>
 *   <li>{@code GET records/{effectiveKey}} — the record, without its body ({@code ?body=true} adds
 *       it, base64);
 *   <li>{@code DELETE records/{effectiveKey}} — erases it: 204, or 404 when there is none;
 *   <li>{@code POST records/lookup} — the record of an operation by its raw parts, from a JSON
 *       body: {@code key}, {@code scope}, and either {@code method} and {@code path} (HTTP) or
 *       {@code beanClass} and {@code methodSignature} (a method call), sent as {@code
 *       application/json} (415 otherwise). The raw key travels in the body, never in a URL that
 *       access logs keep;
 *   <li>{@code POST purge-expired} — deletes expired records now: {@code {"deleted": n}}.
 * </ul>
 *
 * Every call must come from an authenticated caller in the configured role: 401 without a principal
 * (or an anonymous one, see {@link AuthenticatedName}), 403 without the role, and 403 for everyone
 * when no role is configured. That check comes before anything else, so an unauthorized caller
 * learns nothing, not even which paths exist. Errors are {@code application/problem+json};
 * responses are never cached. A delete, and a read that returns a stored body, are logged at INFO
 * with the caller's name and the effective key, never the body.
 *
 * <p>A pre-matching filter, registered only by {@link AdminRegistration}; requests outside the
 * prefix pass through untouched. Thread-safe.
 */
@PreMatching
final class AdminEndpoint implements ContainerRequestFilter {

    /** The admin API's path, relative to the JAX-RS application's base URI. */
    static final String PREFIX = "idemkit/admin";

    /** After authentication filters (which run at {@code AUTHENTICATION}), before user filters. */
    static final int PRIORITY = Priorities.AUTHORIZATION;

    private static final String RECORDS = "records/";
    private static final String LOOKUP = "records/lookup";
    private static final String PURGE = "purge-expired";
    private static final int MAX_LOOKUP_BYTES = 64 * 1024;
    private static final System.Logger LOG = System.getLogger(AdminEndpoint.class.getName());

    private final AdminSettings settings;
    private final Supplier<IdempotencyAdmin> admin;

    AdminEndpoint(AdminSettings settings, Supplier<IdempotencyAdmin> admin) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.admin = Objects.requireNonNull(admin, "admin");
    }

    @Override
    public void filter(ContainerRequestContext request) throws IOException {
        String path = trimmed(request.getUriInfo().getPath(false));
        if (!path.equals(PREFIX) && !path.startsWith(PREFIX + "/")) {
            return;
        }
        String route = path.equals(PREFIX) ? "" : path.substring(PREFIX.length() + 1);
        Optional<Response> refused = refusal(request.getSecurityContext());
        request.abortWith(refused.orElseGet(() -> serve(request, route)));
    }

    private Optional<Response> refusal(SecurityContext security) {
        if (settings.requiredRole().isEmpty()) {
            return Optional.of(
                    problem(
                            403,
                            "urn:idemkit:admin-forbidden",
                            "Admin API refused",
                            "No role is configured for the idemkit admin API, so it refuses"
                                    + " every call. Set idemkit.admin.role."));
        }
        if (security == null || AuthenticatedName.of(security.getUserPrincipal()).isEmpty()) {
            return Optional.of(
                    problem(
                            401,
                            "urn:idemkit:admin-unauthorized",
                            "Authentication required",
                            "The idemkit admin API needs an authenticated caller in the"
                                    + " configured role. Authenticate and try again."));
        }
        if (!security.isUserInRole(settings.role())) {
            return Optional.of(
                    problem(
                            403,
                            "urn:idemkit:admin-forbidden",
                            "Admin API refused",
                            "The caller is not in the role the idemkit admin API requires."));
        }
        return Optional.empty();
    }

    private Response serve(ContainerRequestContext request, String route) {
        String method = request.getMethod();
        try {
            if (route.equals(LOOKUP)) {
                return only(method, HttpMethod.POST, () -> lookup(request));
            }
            if (route.startsWith(RECORDS) && route.indexOf('/', RECORDS.length()) < 0) {
                String key = route.substring(RECORDS.length());
                if (method.equals(HttpMethod.GET)) {
                    boolean body =
                            "true"
                                    .equals(
                                            request.getUriInfo()
                                                    .getQueryParameters()
                                                    .getFirst("body"));
                    return read(key, body, request.getSecurityContext());
                }
                if (method.equals(HttpMethod.DELETE)) {
                    return delete(key, request.getSecurityContext());
                }
                return notAllowed("GET, DELETE");
            }
            if (route.equals(PURGE)) {
                return only(method, HttpMethod.POST, this::purge);
            }
            return problem(
                    404,
                    "urn:idemkit:admin-not-found",
                    "No such admin resource",
                    "The idemkit admin API has records/{effectiveKey}, records/lookup and"
                            + " purge-expired.");
        } catch (IllegalArgumentException e) {
            return problem(
                    400, "urn:idemkit:admin-bad-request", "Bad admin request", e.getMessage());
        } catch (IdempotencyStorageException e) {
            LOG.log(
                    Level.WARNING,
                    "idemkit admin API: the store failed ("
                            + e.getMessage()
                            + "); the call was refused with 503. Check the store, then retry.");
            return problem(
                    503,
                    "urn:idemkit:storage-error",
                    "Idempotency storage unavailable",
                    "The idempotency store is unavailable. Retry later.");
        }
    }

    private Response lookup(ContainerRequestContext request) {
        if (!isJson(request)) {
            return problem(
                    415,
                    "urn:idemkit:admin-unsupported-media-type",
                    "Unsupported media type",
                    "A lookup is a JSON object sent as application/json.");
        }
        JsonObject body = readJson(request.getEntityStream());
        String key = text(body, "key");
        String scope = text(body, "scope");
        String effectiveKey;
        if (body.containsKey("path") || body.containsKey("method")) {
            effectiveKey =
                    admin.get()
                            .httpEffectiveKey(key, scope, text(body, "method"), text(body, "path"));
        } else if (body.containsKey("beanClass") || body.containsKey("methodSignature")) {
            effectiveKey =
                    admin.get()
                            .methodEffectiveKey(
                                    key,
                                    scope,
                                    text(body, "beanClass"),
                                    text(body, "methodSignature"));
        } else {
            throw new IllegalArgumentException(
                    "A lookup names key and scope, and either method and path (an HTTP request)"
                            + " or beanClass and methodSignature (a method call).");
        }
        boolean withBody = body.getBoolean("body", false);
        return read(effectiveKey, withBody, request.getSecurityContext());
    }

    /**
     * The record of {@code key}, with its body if asked. A body that is sent is audited as a delete
     * is: who, which effective key, at INFO (the record's time is the log's); never the body.
     */
    private Response read(String key, boolean withBody, SecurityContext security) {
        if (!withBody) {
            return found(admin.get().find(key), false);
        }
        Optional<RecordInfo> record = admin.get().findWithBody(key);
        if (record.isPresent() && record.get().body() != null) {
            LOG.log(
                    Level.INFO,
                    "idemkit admin API: "
                            + security.getUserPrincipal().getName()
                            + " read the body of the record "
                            + record.get().effectiveKey());
        }
        return found(record, true);
    }

    /**
     * Only {@code application/json} itself, with any parameters ({@code charset=utf-8}); a
     * Content-Type the runtime cannot parse is not JSON either (and is not echoed).
     */
    private static boolean isJson(ContainerRequestContext request) {
        MediaType type;
        try {
            type = request.getMediaType();
        } catch (RuntimeException unparsable) {
            return false;
        }
        return type != null
                && type.getType().equalsIgnoreCase("application")
                && type.getSubtype().equalsIgnoreCase("json");
    }

    private Response delete(String key, SecurityContext security) {
        if (!admin.get().delete(key)) {
            return noRecord();
        }
        LOG.log(
                Level.INFO,
                "idemkit admin API: "
                        + security.getUserPrincipal().getName()
                        + " deleted the record "
                        + key);
        return Response.noContent().header(HttpHeaders.CACHE_CONTROL, "no-store").build();
    }

    private Response purge() {
        try {
            long deleted = admin.get().purgeExpired();
            return json(200, Json.createObjectBuilder().add("deleted", deleted).build());
        } catch (UnsupportedOperationException e) {
            return problem(
                    501,
                    "urn:idemkit:admin-unsupported",
                    "Not supported by this store",
                    e.getMessage());
        }
    }

    private static Response found(Optional<RecordInfo> record, boolean withBody) {
        return record.map(r -> json(200, render(r, withBody))).orElseGet(AdminEndpoint::noRecord);
    }

    private static JsonObject render(RecordInfo record, boolean withBody) {
        JsonObjectBuilder json =
                Json.createObjectBuilder()
                        .add("effectiveKey", record.effectiveKey())
                        .add("state", record.state().name())
                        .add("fingerprint", record.fingerprint())
                        .add("fingerprintVersion", record.fingerprintVersion());
        instant(json, "claimedAt", record.claimedAt());
        instant(json, "leaseUntil", record.leaseUntil());
        instant(json, "completedAt", record.completedAt());
        instant(json, "expiresAt", record.expiresAt());
        if (record.status() != null) {
            json.add("status", record.status());
        }
        json.add("bodyBytes", record.bodyBytes());
        byte[] body = record.body();
        if (withBody && body != null) {
            json.add("body", Base64.getEncoder().encodeToString(body));
        }
        return json.build();
    }

    private static void instant(JsonObjectBuilder json, String name, Instant value) {
        if (value != null) {
            json.add(name, value.toString());
        }
    }

    private static JsonObject readJson(InputStream in) {
        byte[] bytes;
        try {
            bytes = in == null ? new byte[0] : in.readNBytes(MAX_LOOKUP_BYTES + 1);
        } catch (IOException e) {
            throw new IllegalArgumentException("The request body could not be read.");
        }
        if (bytes.length > MAX_LOOKUP_BYTES) {
            throw new IllegalArgumentException("A lookup body is at most 64 KiB.");
        }
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(bytes))) {
            return reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new IllegalArgumentException("A lookup body is one JSON object.");
        }
    }

    private static String text(JsonObject body, String name) {
        JsonValue value = body.get(name);
        if (!(value instanceof JsonString string)) {
            throw new IllegalArgumentException("The lookup needs \"" + name + "\" as a string.");
        }
        return string.getString();
    }

    private static Response only(String method, String allowed, Supplier<Response> serve) {
        return method.equals(allowed) ? serve.get() : notAllowed(allowed);
    }

    private static Response notAllowed(String allow) {
        Response refused =
                problem(
                        405,
                        "urn:idemkit:admin-method-not-allowed",
                        "Method not allowed",
                        "This admin resource answers " + allow + ".");
        return Response.fromResponse(refused).header(HttpHeaders.ALLOW, allow).build();
    }

    private static Response noRecord() {
        return problem(
                404,
                "urn:idemkit:record-not-found",
                "No such record",
                "The store holds no live record for this key: it never existed, expired, was"
                        + " deleted, or is unreadable.");
    }

    private static Response json(int status, JsonObject body) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .entity(body.toString().getBytes(StandardCharsets.UTF_8))
                .build();
    }

    private static Response problem(int status, String type, String title, String detail) {
        return ProblemResponses.problem(status, type, title, detail)
                .header(HttpHeaders.CACHE_CONTROL, "no-store")
                .build();
    }

    private static String trimmed(String path) {
        String p = path == null ? "" : path;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
