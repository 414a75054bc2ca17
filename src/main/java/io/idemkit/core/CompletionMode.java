package io.idemkit.core;

import java.util.Locale;

/**
 * Where a method's record is completed when the method runs in a JTA transaction (contract C13).
 */
public enum CompletionMode {

    /**
     * After the business transaction commits, in a write of its own (the default). A crash between
     * the commit and that write leaves the record claimed: after the lease, a retry runs again.
     */
    AFTER_COMMIT,

    /**
     * Inside the business transaction, fenced by the claim's token, so that the record and the
     * business writes commit or roll back together. Needs a store whose records live in the
     * business database (the JDBC store) and a method that runs in a JTA transaction.
     */
    IN_TRANSACTION;

    /**
     * @param text {@code after-commit} or {@code in-transaction}, any case
     * @return the mode
     * @throws IllegalArgumentException naming the allowed values
     */
    public static CompletionMode parse(String text) {
        String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (CompletionMode mode : values()) {
            if (mode.name().equals(wanted)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be after-commit or in-transaction");
    }

    /**
     * @return the mode as configuration spells it
     */
    public String text() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
