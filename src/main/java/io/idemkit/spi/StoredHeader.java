package io.idemkit.spi;

import java.util.Objects;

/**
 * One response header kept with a completed result. Headers are a list of name/value pairs, not a
 * map: names repeat (several {@code Link} headers), and some stores restrict the characters of
 * field names.
 *
 * @param name the header name, as the operation wrote it
 * @param value the header value
 */
public record StoredHeader(String name, String value) {

    /**
     * Validates the components.
     *
     * @param name the header name, as the operation wrote it
     * @param value the header value
     */
    public StoredHeader {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
