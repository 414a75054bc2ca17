package io.idemkit.demo;

import java.math.BigDecimal;
import java.util.OptionalLong;

/**
 * What a client asks to be charged, as JSON: {@code {"amount": 1999, "currency": "EUR", "to":
 * "acct_42"}}.
 *
 * <p>The amount is read as the exact number the client sent, never as a {@code long} that JSON-B
 * would silently round ({@code 1.5} to 1) or wrap ({@code 99999999999999999999}), so that what
 * cannot be charged as sent is refused instead.
 *
 * @param amount the amount in minor units (cents): a positive whole number of at most {@value
 *     Long#MAX_VALUE}
 * @param currency a three-letter currency code
 * @param to the account credited
 */
public record PaymentRequest(BigDecimal amount, String currency, String to) {

    /** Digits of {@link Long#MAX_VALUE}: a whole number with more cannot be one. */
    private static final int LONG_DIGITS = 19;

    /**
     * @return why this request cannot be charged, or {@code null} when it can
     */
    String problem() {
        if (amount == null || amount.signum() <= 0 || minorUnits().isEmpty()) {
            return "amount must be a positive whole number of minor units (cents), at most "
                    + Long.MAX_VALUE;
        }
        if (currency == null || !currency.matches("[A-Za-z]{3}")) {
            return "currency must be a three-letter code such as EUR";
        }
        if (to == null || to.isBlank()) {
            return "to must name the account to credit";
        }
        return null;
    }

    /**
     * @return the amount in minor units, exactly; empty when it is not a whole number, or too large
     *     for a {@code long}
     */
    OptionalLong minorUnits() {
        if (amount == null) {
            return OptionalLong.empty();
        }
        // Stripped first, so that 1E-999999999 is refused by its scale, before longValueExact
        // would work its way through a billion digits.
        BigDecimal whole = amount.stripTrailingZeros();
        if (whole.scale() > 0 || whole.precision() - whole.scale() > LONG_DIGITS) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(whole.longValueExact());
        } catch (ArithmeticException e) {
            return OptionalLong.empty(); // 19 digits above Long.MAX_VALUE
        }
    }
}
