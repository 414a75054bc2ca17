package io.idemkit.core;

import io.idemkit.spi.StoredResult;

/**
 * Turns an operation's return value into a {@link StoredResult} and back, for surfaces whose
 * outcome is a value rather than a response.
 *
 * @param <T> the value type
 */
public interface ResultCodec<T> {

    /**
     * @param value the operation's return value
     * @return its stored form
     * @throws RuntimeException if the value cannot be stored; the claim is then held
     */
    StoredResult encode(T value);

    /**
     * @param result a stored form written by {@link #encode}
     * @return the value it holds
     */
    T decode(StoredResult result);
}
