package io.idemkit.http;

import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyWire;
import io.idemkit.config.HttpKeyPolicy;
import jakarta.json.Json;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The error responses of the HTTP surface (contract C6.4): RFC 9457 {@code
 * application/problem+json} bodies with {@code type}, {@code title}, {@code status} and {@code
 * detail}. No body ever echoes the key, the scope or the request body. Thread-safe.
 */
public final class ProblemResponses {

    /** The media type of every error body. */
    public static final String PROBLEM_JSON = "application/problem+json";

    /** {@code Retry-After} of a storage outage: the store's own timeout is usually in seconds. */
    static final Duration STORAGE_RETRY_AFTER = Duration.ofSeconds(5);

    private final CompatMode compat;

    ProblemResponses(CompatMode compat) {
        this.compat = compat;
    }

    Response missingKey(String detail) {
        return problem(
                        400,
                        IdempotencyWire.MISSING_KEY,
                        "Idempotency key missing or invalid",
                        detail)
                .build();
    }

    /** A mutating request without a key, where {@code idemkit.require-key} holds. */
    Response keyRequired(HttpKeyPolicy source) {
        return missingKey(
                "This endpoint requires an "
                        + source.keyExtractor()
                                .map(x -> "idempotency key, which it takes from the request,")
                                .orElse(source.keyHeader() + " header")
                        + " (idemkit.require-key=true). Send one key of 1 to 255 bytes; a UUID is a"
                        + " good choice.");
    }

    Response malformedQuery() {
        return problem(
                        400,
                        IdempotencyWire.MALFORMED_QUERY,
                        "Request query malformed",
                        "The request's query or path could not be read as sent (a malformed"
                                + " percent-escape, or a character that cannot be encoded), so"
                                + " the request could not be fingerprinted, and it was refused."
                                + " Percent-encode a literal % as %25, then retry.")
                .build();
    }

    Response incompleteBody() {
        return problem(
                        400,
                        IdempotencyWire.INCOMPLETE_BODY,
                        "Request body incomplete",
                        "The request body could not be read whole: the connection ended, or"
                                + " stalled, before the length its Content-Length declared."
                                + " Send the whole body again with the same key.")
                .build();
    }

    Response payloadMismatch() {
        return problem(
                        stripe() ? 409 : 422,
                        IdempotencyWire.PAYLOAD_MISMATCH,
                        "Idempotency key payload mismatch",
                        "The idempotency key was used before with a different request payload."
                                + " Send the same payload as before, or use a new key for a new"
                                + " operation.")
                .build();
    }

    Response inProgress(IdempotencyInProgressException e) {
        return problem(
                        stripe() ? 409 : 423,
                        IdempotencyWire.IN_PROGRESS,
                        "Idempotency key in progress",
                        "Another request with the same idempotency key is still being processed."
                                + " Retry after Retry-After seconds with the same key and payload.")
                .header(HttpHeaders.RETRY_AFTER, seconds(e.retryAfter()))
                .build();
    }

    Response storageError() {
        return problem(
                        503,
                        IdempotencyWire.STORAGE_ERROR,
                        "Idempotency storage unavailable",
                        "The idempotency store is unavailable, so the request was refused rather"
                                + " than run unprotected. Retry later with the same key, a bounded number of"
                                + " times, backing off.")
                .header(HttpHeaders.RETRY_AFTER, seconds(STORAGE_RETRY_AFTER))
                .build();
    }

    Response identityUnavailable() {
        return problem(
                        500,
                        IdempotencyWire.IDENTITY_UNAVAILABLE,
                        "Caller identity unavailable",
                        "The server could not determine the caller's identity for this request,"
                                + " and refused it to keep callers' idempotency keys apart. This"
                                + " is a server-side configuration problem.")
                .build();
    }

    /**
     * Application request filters run after idemkit's, under {@code scope-mode=strict} (C6.10). The
     * body names no filter: the server log does.
     */
    Response filterOrder() {
        return problem(
                        500,
                        IdempotencyWire.FILTER_ORDER,
                        "Idempotency filter misconfigured",
                        "Request filters of this application run after the idempotency filter,"
                                + " so a duplicate request could be answered before they check it;"
                                + " the request was refused. This is a server-side configuration"
                                + " problem: the server log names the filters.")
                .build();
    }

    /**
     * The method surface's unstorable result (C7.2, C7.5): a server-side fault with no HTTP-surface
     * counterpart. The operation ran; the key stays claimed until its lease runs out.
     */
    Response resultNotStorable() {
        return problem(
                        500,
                        IdempotencyWire.RESULT_NOT_STORABLE,
                        "Idempotent result not storable",
                        "The operation ran, but the server could not store its result for replay."
                                + " This is a server-side fault. A retry with the same key is"
                                + " refused as in progress until the key's lease runs out; after"
                                + " that it runs the operation again.")
                .build();
    }

    /** Whole seconds, rounded up, at least 1: a client that retries at 0 only spins. */
    static String seconds(Duration d) {
        long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Long.toString(Math.max(1, s));
    }

    private boolean stripe() {
        return compat == CompatMode.STRIPE;
    }

    /**
     * An RFC 9457 problem response, shared with the admin API.
     *
     * @param status the HTTP status
     * @param type the problem type URI
     * @param title a short summary
     * @param detail what happened and what to do, with no key and no payload
     * @return a response builder with the problem+json body set
     */
    public static Response.ResponseBuilder problem(
            int status, String type, String title, String detail) {
        String body =
                Json.createObjectBuilder()
                        .add("type", type)
                        .add("title", title)
                        .add("status", status)
                        .add("detail", detail)
                        .build()
                        .toString();
        return Response.status(status)
                .type(PROBLEM_JSON)
                .entity(body.getBytes(StandardCharsets.UTF_8));
    }
}
