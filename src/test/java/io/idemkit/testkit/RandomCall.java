package io.idemkit.testkit;

import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Duration;

/**
 * One random SPI call of the contract's random-argument property ({@link RandomCallsContract}).
 * Only the arguments of its method count; {@link #toString()} shows those.
 *
 * @param op the method
 * @param key the key
 * @param fingerprint the fingerprint, any text or {@code null}
 * @param version the fingerprint version, any int
 * @param ttl the lease or retention, any duration or {@code null}
 * @param token the token
 * @param result the result, or {@code null}
 * @param timeout the wait's timeout
 */
record RandomCall(
        Op op,
        KeyArg key,
        String fingerprint,
        int version,
        Duration ttl,
        TokenArg token,
        StoredResult result,
        TimeoutArg timeout) {
    @Override
    public String toString() {
        return switch (op) {
            case CLAIM ->
                    "claim(" + key + ", " + show(fingerprint) + ", " + version + ", " + ttl + ")";
            case COMPLETE ->
                    "complete(" + key + ", " + token + ", " + showResult(result) + ", " + ttl + ")";
            case RELEASE -> "release(" + key + ", " + token + ")";
            case RENEW -> "renew(" + key + ", " + token + ", " + ttl + ")";
            case AWAIT_COMPLETION -> "awaitCompletion(" + key + ", " + timeout + ")";
            case FIND -> "find(" + key + ")";
            case DELETE -> "delete(" + key + ")";
        };
    }

    private static String show(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder("\"");
        text.codePoints()
                .limit(40)
                .forEach(
                        cp -> {
                            if (cp >= 0x21 && cp <= 0x7E) {
                                shown.appendCodePoint(cp);
                            } else {
                                shown.append("\\u{").append(Integer.toHexString(cp)).append('}');
                            }
                        });
        return shown.append(text.length() > 40 ? "…(" + text.length() + ")\"" : "\"").toString();
    }

    private static String showResult(StoredResult result) {
        if (result == null) {
            return "null";
        }
        StringBuilder shown = new StringBuilder("result(" + result.status() + ", [");
        for (StoredHeader header : result.headers()) {
            shown.append(show(header.name())).append(": ").append(show(header.value())).append(' ');
        }
        return shown.append("], ").append(result.bodyLength()).append(" bytes)").toString();
    }

    /** The SPI methods the random calls exercise: all of them. */
    enum Op {
        CLAIM,
        COMPLETE,
        RELEASE,
        RENEW,
        AWAIT_COMPLETION,
        FIND,
        DELETE
    }

    /** How a random call's key is made from the try's keys. */
    enum KeyShape {
        /** One of the try's valid keys. */
        VALID,
        NULL,
        EMPTY,
        /** A valid key padded to one character past the maximum. */
        TOO_LONG,
        /** A valid key repeated to a megabyte. */
        HUGE,
        /** A valid key with one character appended that is not printable ASCII. */
        BAD_CHARACTER
    }

    /**
     * A random call's key: its shape, which of the try's keys it starts from, and (for {@link
     * KeyShape#BAD_CHARACTER}) the code point appended, a lone surrogate included.
     *
     * @param shape how the key is made
     * @param slot which of the try's keys, modulo their number
     * @param badCodePoint the code point appended to a {@link KeyShape#BAD_CHARACTER} key
     */
    record KeyArg(KeyShape shape, int slot, int badCodePoint) {
        @Override
        public String toString() {
            return switch (shape) {
                case VALID -> "key#" + slot;
                case BAD_CHARACTER -> "key#" + slot + "+U+" + Integer.toHexString(badCodePoint);
                default -> shape.name();
            };
        }
    }

    /** Which token a fenced call presents, resolved against the model when it runs. */
    enum TokenArg {
        /** The token of the record held under the key, whatever its state. */
        OWNER,
        /** A token issued earlier for the key, not the held record's. */
        STALE,
        /** The token of a record held under another key. */
        OTHER_KEY,
        NEVER_ISSUED,
        NULL
    }

    /** The timeout of a random wait. */
    enum TimeoutArg {
        NULL,
        NEGATIVE,
        ZERO,
        FIVE_MILLISECONDS,
        /**
         * {@code Duration}'s largest value; presented only when the model says the wait ends at
         * once (a wait on a live claim would block the try), and as zero otherwise.
         */
        LONGEST
    }
}
