package io.idemkit.client;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One logical operation of the calling application (C14.1): its key, and how many requests of each
 * method and path it has keyed so far, which numbers the next one (C14.2). It also remembers when
 * its first key went out and the earliest {@code Idempotency-Key-Expires} a server answered, the
 * two ends of its keys' lifetime that a retry must not pass (C14.5). Thread-safe.
 */
final class Operation {

    private final byte[] key;
    private final boolean chosen;
    private final Map<String, Integer> occurrences = new HashMap<>();
    private Instant firstKeyAt;
    private Instant keyExpiresAt;

    private Operation(byte[] key, boolean chosen) {
        this.key = key;
        this.chosen = chosen;
    }

    /**
     * @return an operation with a key of 128 random bits
     */
    static Operation random() {
        return new Operation(RequestKeys.randomOperationKey(), false);
    }

    /**
     * @param key the key the application chose for the operation (an order id), not blank
     * @return an operation with that key
     */
    static Operation chosen(String key) {
        return new Operation(key.getBytes(StandardCharsets.UTF_8), true);
    }

    /**
     * @param chosenKey a key the application chose
     * @return whether this operation is the one that key names
     */
    boolean isChosen(String chosenKey) {
        return chosen && Arrays.equals(key, chosenKey.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Numbers the next request of {@code method} and {@code path} and gives it its key.
     *
     * @param now when the request is sent, on the caller's clock
     */
    synchronized String nextKey(String method, String path, Instant now) {
        int occurrence = occurrences.merge(method + ' ' + path, 1, Integer::sum);
        if (firstKeyAt == null) {
            firstKeyAt = now;
        }
        return RequestKeys.derive(key, method, path, occurrence);
    }

    /**
     * @return how many requests of each method and path were keyed so far, a copy
     */
    synchronized Map<String, Integer> occurrences() {
        return Map.copyOf(occurrences);
    }

    /**
     * Numbers requests again from {@code earlier}: an attempt that repeats the operation's body
     * sends its requests under the keys the first attempt gave them (C14.3).
     */
    synchronized void restore(Map<String, Integer> earlier) {
        occurrences.clear();
        occurrences.putAll(earlier);
    }

    /** Notes a server's {@code Idempotency-Key-Expires}; the earliest one counts. */
    synchronized void keyExpiresAt(Instant expiresAt) {
        if (keyExpiresAt == null || expiresAt.isBefore(keyExpiresAt)) {
            keyExpiresAt = expiresAt;
        }
    }

    /**
     * @return when the operation's first key was sent, if one was
     */
    synchronized Optional<Instant> firstKeyAt() {
        return Optional.ofNullable(firstKeyAt);
    }

    /**
     * @return the earliest expiry of a key of this operation that a server announced
     */
    synchronized Optional<Instant> keyExpiresAt() {
        return Optional.ofNullable(keyExpiresAt);
    }
}
