package io.idemkit.spi;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The outcome of an operation as it is stored and replayed: a status, the headers allowed to be
 * stored, and the body bytes verbatim. The HTTP surface stores the response; the method surface
 * stores status {@code 200}, a content type header and the JSON form of the return value.
 *
 * <p>Instances are immutable: the body is copied in and out.
 *
 * @param status the HTTP status (or {@code 200} for a method call), 100 to 599
 * @param headers the stored headers, in order
 * @param body the body bytes, never {@code null}
 */
public record StoredResult(int status, List<StoredHeader> headers, byte[] body) {

    /**
     * Validates and copies the components.
     *
     * @param status the HTTP status (or {@code 200} for a method call), 100 to 599
     * @param headers the stored headers, in order
     * @param body the body bytes, never {@code null}
     */
    public StoredResult {
        if (status < 100 || status > 599) {
            throw new IllegalArgumentException("status must be 100 to 599, was " + status);
        }
        headers = List.copyOf(Objects.requireNonNull(headers, "headers"));
        body = Objects.requireNonNull(body, "body").clone();
    }

    /**
     * @return a copy of the body bytes
     */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /**
     * @return the body length in bytes, without copying it
     */
    public int bodyLength() {
        return body.length;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoredResult that
                && status == that.status
                && headers.equals(that.headers)
                && Arrays.equals(body, that.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(status, headers, Arrays.hashCode(body));
    }

    @Override
    public String toString() {
        // Bodies never reach logs.
        return "StoredResult[status="
                + status
                + ", headers="
                + headers.size()
                + ", body="
                + body.length
                + " bytes]";
    }
}
