package io.idemkit.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a store reports of itself to the readiness check: whether it can serve claims now, and what
 * it measured on the way (MongoDB's clock offset, the in-memory store's fill level).
 *
 * @param up whether the store can serve claims now
 * @param details what the readiness check shows beside the state, in order; values are {@link
 *     String}, {@link Long} or {@link Boolean}. Never a key or a payload (C3, C4.9). Copied.
 */
public record StoreHealth(boolean up, Map<String, Object> details) {

    /**
     * Validates the components and copies the details.
     *
     * @param up whether the store can serve claims now
     * @param details what the readiness check shows beside the state, in order
     */
    public StoreHealth {
        Objects.requireNonNull(details, "details");
        Map<String, Object> copy = new LinkedHashMap<>();
        details.forEach(
                (name, value) -> {
                    Objects.requireNonNull(name, "details name");
                    if (!(value instanceof String
                            || value instanceof Long
                            || value instanceof Boolean)) {
                        throw new IllegalArgumentException(
                                "A health detail is a String, a Long or a Boolean; "
                                        + name
                                        + " is "
                                        + (value == null ? "null" : value.getClass().getName()));
                    }
                    copy.put(name, value);
                });
        details = Collections.unmodifiableMap(copy);
    }

    /**
     * @param details what the store measured, see {@link #details()}
     * @return a report that the store can serve claims
     */
    public static StoreHealth up(Map<String, Object> details) {
        return new StoreHealth(true, details);
    }

    /**
     * @param details what the store measured, see {@link #details()}
     * @param error why the store cannot serve claims, and what the operator can do
     * @return a report that the store cannot serve claims now
     */
    public static StoreHealth down(Map<String, Object> details, String error) {
        Objects.requireNonNull(error, "error");
        Map<String, Object> all = new LinkedHashMap<>(details);
        all.put("error", error);
        return new StoreHealth(false, all);
    }
}
