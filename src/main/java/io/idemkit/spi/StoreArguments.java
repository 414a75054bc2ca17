package io.idemkit.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * The argument checks of {@link IdempotencyStore}'s input rules, in one place: a check per rule
 * ({@code require...}) and one per operation ({@code check...}). Every built-in store runs an
 * operation's check before it touches its backend, so that a refused call writes nothing; a store
 * of your own may call them too, and the store contract suite holds it to the same rules whether it
 * does or not. Each check throws {@link NullPointerException} for {@code null} and {@link
 * IllegalArgumentException} for a value out of range; messages name the argument and the rule but
 * never echo a key. Stateless and thread-safe.
 */
public final class StoreArguments {

    /** The longest key a store must accept, in characters: 256. */
    public static final int MAX_KEY_LENGTH = 256;

    /** The longest fingerprint a store must accept, in characters: 256. */
    public static final int MAX_FINGERPRINT_LENGTH = 256;

    /** The lowest fingerprint version: versions are numbered from 1. */
    public static final int MIN_FINGERPRINT_VERSION = 1;

    /**
     * The shortest lease or retention: 1 millisecond, the resolution every store must keep. Longer
     * durations may be rounded down to the millisecond.
     */
    public static final Duration MIN_TTL = Duration.ofMillis(1);

    /**
     * The longest lease or retention a store must represent: 36 525 days (100 years), far beyond
     * any sensible setting and well inside what dates in every common backend can hold.
     */
    public static final Duration MAX_TTL = Duration.ofDays(36_525);

    /**
     * The key the default {@link IdempotencyStore#health()} reads: valid, and no operation's, since
     * effective keys are SHA-256 digests and this one would need a preimage of all zeros.
     */
    static final String UNUSED_KEY = "0".repeat(64);

    private StoreArguments() {}

    /**
     * The arguments of {@link IdempotencyStore#claim}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkClaim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        requireKey(key);
        requireFingerprint(fingerprint);
        requireFingerprintVersion(fingerprintVersion);
        requireTtl(leaseTtl, "leaseTtl");
    }

    /**
     * The arguments of {@link IdempotencyStore#complete} and {@code completeInTransaction}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkComplete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        requireKey(key);
        requireToken(token);
        requireResult(result);
        requireTtl(completedTtl, "completedTtl");
    }

    /**
     * The arguments of {@link IdempotencyStore#release}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if the key is out of range
     */
    public static void checkRelease(String key, ClaimToken token) {
        requireKey(key);
        requireToken(token);
    }

    /**
     * The arguments of {@link IdempotencyStore#renew}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkRenew(String key, ClaimToken token, Duration leaseTtl) {
        checkRelease(key, token);
        requireTtl(leaseTtl, "leaseTtl");
    }

    /**
     * The arguments of {@link IdempotencyStore#awaitCompletion}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkAwaitCompletion(String key, Duration timeout) {
        requireKey(key);
        requireTimeout(timeout);
    }

    /**
     * The arguments of {@link IdempotencyStore#countAttempt}.
     *
     * @throws NullPointerException if an argument is {@code null}
     * @throws IllegalArgumentException if one is out of range
     */
    public static void checkCountAttempt(String attemptsKey, Duration retention) {
        requireKey(attemptsKey);
        requireTtl(retention, "retention");
    }

    /**
     * An effective key: 1 to {@value #MAX_KEY_LENGTH} characters, each printable ASCII ({@code
     * U+0021} to {@code U+007E}: no space, no control character, nothing a backend might
     * re-encode). The effective keys idemkit computes are 64 lowercase hex characters.
     *
     * @param key the key to check
     * @return {@code key}
     * @throws NullPointerException if {@code key} is {@code null}
     * @throws IllegalArgumentException if it is empty, too long, or holds another character
     */
    public static String requireKey(String key) {
        return requirePrintableAscii(key, "key", MAX_KEY_LENGTH);
    }

    /**
     * A fingerprint: 1 to {@value #MAX_FINGERPRINT_LENGTH} printable ASCII characters, as for a
     * key. The fingerprints idemkit computes are 64 lowercase hex characters.
     *
     * @param fingerprint the fingerprint to check
     * @return {@code fingerprint}
     * @throws NullPointerException if {@code fingerprint} is {@code null}
     * @throws IllegalArgumentException if it is empty, too long, or holds another character
     */
    public static String requireFingerprint(String fingerprint) {
        return requirePrintableAscii(fingerprint, "fingerprint", MAX_FINGERPRINT_LENGTH);
    }

    /**
     * A fingerprint version: {@value #MIN_FINGERPRINT_VERSION} or more. A version this library does
     * not compute is not refused here: it is what a node of another release claims with during a
     * rolling upgrade, and stores write it as asked and read it back as it is (contract C3).
     *
     * @param version the version to check
     * @return {@code version}
     * @throws IllegalArgumentException if it is below {@value #MIN_FINGERPRINT_VERSION}
     */
    public static int requireFingerprintVersion(int version) {
        if (version < MIN_FINGERPRINT_VERSION) {
            throw new IllegalArgumentException(
                    "fingerprintVersion must be " + MIN_FINGERPRINT_VERSION + " or more");
        }
        return version;
    }

    /**
     * A lease or retention: from {@link #MIN_TTL} to {@link #MAX_TTL}, both included.
     *
     * @param ttl the duration to check
     * @param name the argument's name for the message, such as {@code leaseTtl}
     * @return {@code ttl}
     * @throws NullPointerException if {@code ttl} is {@code null}
     * @throws IllegalArgumentException if it is zero, negative, below 1 ms or above 100 years
     */
    public static Duration requireTtl(Duration ttl, String name) {
        Objects.requireNonNull(ttl, name);
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException(name + " must be positive");
        }
        if (ttl.compareTo(MIN_TTL) < 0) {
            throw new IllegalArgumentException(name + " must be at least 1ms");
        }
        if (ttl.compareTo(MAX_TTL) > 0) {
            throw new IllegalArgumentException(name + " must be at most 36525d (100 years)");
        }
        return ttl;
    }

    /**
     * A wait's timeout: zero (look once, do not wait) or positive, up to {@link Duration}'s own
     * maximum. Stores wait at most about 292 years, the range of {@link System#nanoTime()}.
     *
     * @param timeout the timeout to check
     * @return {@code timeout}
     * @throws NullPointerException if {@code timeout} is {@code null}
     * @throws IllegalArgumentException if it is negative
     */
    public static Duration requireTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative");
        }
        return timeout;
    }

    /**
     * A claim token.
     *
     * @param token the token to check
     * @return {@code token}
     * @throws NullPointerException if {@code token} is {@code null}
     */
    public static ClaimToken requireToken(ClaimToken token) {
        return Objects.requireNonNull(token, "token");
    }

    /**
     * A result to store: not {@code null}, and every header name and value well-formed Unicode (no
     * lone surrogate, which no UTF-8 backend can hold and would silently replace). Whether the
     * result fits the store is for the store to judge.
     *
     * @param result the result to check
     * @return {@code result}
     * @throws NullPointerException if {@code result} is {@code null}
     * @throws IllegalArgumentException if a header name or value holds a lone surrogate
     */
    public static StoredResult requireResult(StoredResult result) {
        Objects.requireNonNull(result, "result");
        for (StoredHeader header : result.headers()) {
            if (hasLoneSurrogate(header.name()) || hasLoneSurrogate(header.value())) {
                throw new IllegalArgumentException(
                        "result header names and values must not contain a lone surrogate");
            }
        }
        return result;
    }

    /**
     * {@code timeout} in nanoseconds, or {@link Long#MAX_VALUE} when it is longer than that.
     *
     * @param timeout a checked timeout
     * @return its length in nanoseconds, saturated
     */
    public static long saturatedNanos(Duration timeout) {
        try {
            return timeout.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String requirePrintableAscii(String value, String name, int maxLength) {
        Objects.requireNonNull(value, name);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
        if (value.length() > maxLength) {
            throw new IllegalArgumentException(
                    name + " must be at most " + maxLength + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x21 || c > 0x7E) {
                throw new IllegalArgumentException(
                        name + " must hold printable ASCII only (U+0021 to U+007E)");
            }
        }
        return value;
    }

    private static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
