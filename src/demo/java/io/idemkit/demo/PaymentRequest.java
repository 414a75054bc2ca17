package io.idemkit.demo;

/**
 * What a client asks to be charged, as JSON: {@code {"amount": 1999, "currency": "EUR", "to":
 * "acct_42"}}.
 *
 * @param amount the amount in minor units (cents), positive
 * @param currency a three-letter currency code
 * @param to the account credited
 */
public record PaymentRequest(Long amount, String currency, String to) {

    /**
     * @return why this request cannot be charged, or {@code null} when it can
     */
    String problem() {
        if (amount == null || amount <= 0) {
            return "amount must be a positive number of minor units (cents)";
        }
        if (currency == null || !currency.matches("[A-Za-z]{3}")) {
            return "currency must be a three-letter code such as EUR";
        }
        if (to == null || to.isBlank()) {
            return "to must name the account to credit";
        }
        return null;
    }
}
