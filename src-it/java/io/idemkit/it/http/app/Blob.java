package io.idemkit.it.http.app;

/**
 * A response body of a chosen size, written by {@link BlobWriter} without a length, as a chunked
 * response.
 *
 * @param size its length in bytes
 */
public record Blob(int size) {}
