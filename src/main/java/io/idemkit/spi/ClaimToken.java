package io.idemkit.spi;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The fencing token of one claim: 128 random bits from {@link SecureRandom}, as 32 lowercase hex
 * characters. A store issues a new token on every successful claim; complete, release and renew
 * succeed only with the token of the current claim, so an executor whose lease was taken over can
 * no longer change the record.
 *
 * @param value the token's text form; never blank
 */
public record ClaimToken(String value) {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    /**
     * Validates the token text.
     *
     * @param value the token's text form; never blank
     */
    public ClaimToken {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("a claim token must not be blank");
        }
    }

    /**
     * Draws a new token. Thread-safe.
     *
     * @return a token of 128 random bits
     */
    public static ClaimToken random() {
        byte[] bits = new byte[16];
        RANDOM.nextBytes(bits);
        return new ClaimToken(HEX.formatHex(bits));
    }

    @Override
    public String toString() {
        // A token is a capability; keep it out of logs.
        return "ClaimToken[…]";
    }
}
