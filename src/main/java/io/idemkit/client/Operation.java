package io.idemkit.client;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One logical operation of the calling application (C14.1): its key, and its count of the requests
 * of each method and path it keyed, which numbers the next one (C14.2; an attempt counts in a count
 * of its own, {@link Frame#attempt}). It also remembers when its first key went out and the
 * earliest {@code Idempotency-Key-Expires} a server answered, the two ends of its keys' lifetime
 * that a retry must not pass (C14.5). Thread-safe.
 */
final class Operation {

    private final byte[] key;
    private final boolean chosen;
    private final Occurrences occurrences = new Occurrences();
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
     * @return the operation's own count of the requests it keyed, which a level opened on it
     *     numbers its requests in outside its attempts
     */
    Occurrences occurrences() {
        return occurrences;
    }

    /**
     * Gives a request its key.
     *
     * @param method the request's method
     * @param path its canonical path
     * @param occurrence its number among the operation's requests of that method and path
     * @param now when it is sent, on the caller's clock
     */
    synchronized String key(String method, String path, int occurrence, Instant now) {
        return key(List.of(), method, path, occurrence, now);
    }

    /**
     * Gives a request of a step its key.
     *
     * @param steps the names of the steps the request is in, outermost first; empty for none
     * @param occurrence its number among the innermost step's requests of that method and path
     */
    synchronized String key(
            List<String> steps, String method, String path, int occurrence, Instant now) {
        if (firstKeyAt == null) {
            firstKeyAt = now;
        }
        return steps.isEmpty()
                ? RequestKeys.derive(key, method, path, occurrence)
                : RequestKeys.deriveInStep(key, steps, method, path, occurrence);
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
