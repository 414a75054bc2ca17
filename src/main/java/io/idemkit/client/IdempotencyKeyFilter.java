package io.idemkit.client;

import io.idemkit.IdempotencyWire;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import java.io.InputStream;
import java.io.Reader;
import java.time.Clock;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Puts the key on a request (C14.4) and notes what its response says (C14.6), for the operation the
 * request belongs to: the one captured on the invoking thread, else the one open on the sending
 * thread (C14.8). One instance per client, registered by {@link IdempotencyClientFeature};
 * stateless apart from its settings, so thread-safe.
 */
final class IdempotencyKeyFilter implements ClientRequestFilter, ClientResponseFilter {

    private final ClientSettings settings;
    private final Clock clock;

    IdempotencyKeyFilter(ClientSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void filter(ClientRequestContext request) {
        String method = request.getMethod().toUpperCase(Locale.ROOT);
        boolean unsafe = !ClientSettings.SAFE_METHODS.contains(method);
        List<OperationStack.Level> levels = CapturedOperation.of(request);
        CapturedOperation.holdCarried(request, levels);
        List<Frame> frames = levels.stream().map(OperationStack.Level::frame).toList();
        refuseSpentStream(frames, method, request);
        if (hasKey(request)) {
            // The caller's own key is never replaced (C14.4), but must not change on a retry.
            refuseChangedKey(levels, method, request);
            record(frames, true, unsafe);
            return;
        }
        Operation operation = null;
        Occurrences occurrences = null;
        List<String> steps = List.of();
        if (settings.methods().contains(method)) {
            if (!levels.isEmpty()) {
                OperationStack.Level innermost = levels.get(levels.size() - 1);
                operation = innermost.frame().operation();
                occurrences = innermost.occurrences();
                steps = innermost.frame().steps();
            } else if (settings.keyWithoutOperation()) {
                operation = Operation.random();
                occurrences = operation.occurrences();
            }
        }
        if (operation == null) {
            record(frames, false, unsafe);
            return;
        }
        String path = RequestKeys.canonicalPath(request.getUri());
        String key =
                operation.key(
                        steps,
                        method,
                        path,
                        occurrences.next(method + ' ' + path),
                        clock.instant());
        request.getHeaders().putSingle(settings.keyHeader(), key);
        request.setProperty(IdempotentResponses.KEYED_PROPERTY, Boolean.TRUE);
        record(frames, true, unsafe);
    }

    @Override
    public void filter(ClientRequestContext request, ClientResponseContext response) {
        boolean replayed = IdempotentResponses.isReplay(response::getHeaderString);
        request.setProperty(IdempotentResponses.REPLAYED_PROPERTY, replayed);
        String retryAfter = response.getHeaderString(HttpHeaders.RETRY_AFTER);
        Optional<Instant> expires =
                imfFixdate(response.getHeaderString(IdempotencyWire.KEY_EXPIRES_HEADER));
        List<Frame> frames = CapturedOperation.framesOf(request);
        if (frames.isEmpty()) {
            return;
        }
        // Read here, where the whole response is seen: a Rest Client's exception may lose both
        // the headers and the body (Liberty's does).
        String problemType = ProblemBodies.peekType(response);
        Boolean shouldRetry =
                shouldRetry(response.getHeaderString(IdempotencyWire.STRIPE_SHOULD_RETRY_HEADER));
        for (Frame frame : frames) {
            frame.log()
                    .received(response.getStatus(), replayed, retryAfter, problemType, shouldRetry);
        }
        if (!frames.isEmpty() && expires.isPresent()) {
            frames.get(frames.size() - 1).operation().keyExpiresAt(expires.get());
        }
    }

    /**
     * Refuses to send a body that can be read once (an {@code InputStream}, a {@code Reader}) that
     * an earlier request of the same operation level sent: the first attempt read it to its end,
     * and a retry would send it empty or cut under the same key, which the server refuses as a
     * payload mismatch at best. Build such a body inside the retried call.
     *
     * @throws IllegalStateException then, before anything is sent; the client reports it as the
     *     call's failure, and {@link IdempotentRetry} does not retry it
     */
    private static void refuseSpentStream(
            List<Frame> frames, String method, ClientRequestContext request) {
        Object body = request.getEntity();
        if (frames.isEmpty() || !(body instanceof InputStream || body instanceof Reader)) {
            return;
        }
        if (frames.get(frames.size() - 1).streamSpent(body)) {
            throw new IllegalStateException(
                    "The body of "
                            + method
                            + " "
                            + RequestKeys.canonicalPath(request.getUri())
                            + " is a stream an earlier attempt of its operation already sent:"
                            + " it was read to its end there, and would go out empty or cut."
                            + " Open the stream inside the retried call, or send the bytes."
                            + " The request was not sent.");
        }
    }

    /**
     * Refuses to send a request whose own key differs from the one the same request carried in an
     * earlier attempt of its level: the server would take it for a new request and run it again.
     *
     * @throws IdempotencyKeyChangedException then; the client reports it as the call's failure
     */
    private void refuseChangedKey(
            List<OperationStack.Level> levels, String method, ClientRequestContext request) {
        if (levels.isEmpty()) {
            return;
        }
        OperationStack.Level innermost = levels.get(levels.size() - 1);
        String target = method + ' ' + RequestKeys.canonicalPath(request.getUri());
        int number = innermost.occurrences().next("caller-keyed " + target);
        String key = request.getHeaderString(settings.keyHeader());
        if (innermost.frame().callersKeyChanged(target + " #" + number, key)) {
            throw new IdempotencyKeyChangedException(
                    "The "
                            + settings.keyHeader()
                            + " of "
                            + target
                            + " differs from the one it carried in an earlier attempt of its"
                            + " operation: a key set by the caller must be the same on every"
                            + " attempt, or the server runs the request again. A key made inside"
                            + " the retried call (a new UUID) or by @ClientHeaderParam is new"
                            + " each time: let the library key the request, or make the key"
                            + " once, outside the retry. The request was not sent.");
        }
    }

    /**
     * @return {@code true} or {@code false} as the header says, {@code null} when it is absent or
     *     says neither
     */
    static Boolean shouldRetry(String header) {
        if (header == null) {
            return null;
        }
        String value = header.strip();
        if (value.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        return value.equalsIgnoreCase("false") ? Boolean.FALSE : null;
    }

    private boolean hasKey(ClientRequestContext request) {
        for (String name : request.getHeaders().keySet()) {
            if (name.equalsIgnoreCase(settings.keyHeader())
                    && !request.getHeaders().get(name).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static void record(List<Frame> frames, boolean keyed, boolean unsafe) {
        for (Frame frame : frames) {
            frame.log().sent(keyed, unsafe);
        }
    }

    /**
     * @return the instant an IMF-fixdate names; empty when there is none or it is not one
     */
    static Optional<Instant> imfFixdate(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    ZonedDateTime.parse(text.strip(), DateTimeFormatter.RFC_1123_DATE_TIME)
                            .toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
