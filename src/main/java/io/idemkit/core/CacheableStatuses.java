package io.idemkit.core;

import io.idemkit.spi.StoredResult;
import java.util.BitSet;
import java.util.Locale;
import java.util.Objects;

/**
 * The status-based {@link CacheablePolicy}: a set of HTTP statuses written as a comma-separated
 * list of classes ({@code 2xx}), single codes ({@code 409}) and inclusive ranges ({@code 400-409}).
 * The default, {@code 2xx}, stores only success; 5xx is stored only when listed.
 */
public final class CacheableStatuses implements CacheablePolicy {

    /** The default: only success is stored. */
    public static final String DEFAULT = "2xx";

    private final BitSet statuses;
    private final String text;

    private CacheableStatuses(BitSet statuses, String text) {
        this.statuses = statuses;
        this.text = text;
    }

    /**
     * @param text a status list such as {@code 2xx,409}
     * @return the parsed set
     * @throws IllegalArgumentException with the rule that {@code text} broke
     */
    public static CacheableStatuses parse(String text) {
        Objects.requireNonNull(text, "text");
        BitSet set = new BitSet(600);
        for (String raw : text.split(",", -1)) {
            String item = raw.strip().toLowerCase(Locale.ROOT);
            if (item.matches("[1-5]xx")) {
                int base = (item.charAt(0) - '0') * 100;
                set.set(base, base + 100);
            } else if (item.matches("\\d{3}-\\d{3}")) {
                int from = Integer.parseInt(item.substring(0, 3));
                int to = Integer.parseInt(item.substring(4));
                if (from > to || !isStatus(from) || !isStatus(to)) {
                    throw new IllegalArgumentException(
                            "the range " + item + " must run upwards within 100-599");
                }
                set.set(from, to + 1);
            } else if (item.matches("\\d{3}") && isStatus(Integer.parseInt(item))) {
                set.set(Integer.parseInt(item));
            } else {
                throw new IllegalArgumentException(
                        "must be a comma-separated list of status classes (2xx), codes (409) or"
                                + " ranges (400-409) within 100-599");
            }
        }
        return new CacheableStatuses(set, text.strip());
    }

    private static boolean isStatus(int code) {
        return code >= 100 && code <= 599;
    }

    /**
     * @param status an HTTP status
     * @return whether it is in the set
     */
    public boolean contains(int status) {
        return status >= 0 && statuses.get(status);
    }

    @Override
    public boolean isCacheable(StoredResult result) {
        return contains(result.status());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof CacheableStatuses that && statuses.equals(that.statuses);
    }

    @Override
    public int hashCode() {
        return statuses.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
