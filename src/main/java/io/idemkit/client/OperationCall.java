package io.idemkit.client;

/**
 * The body of an operation, or of one attempt of it: a call that returns a value and may throw one
 * checked exception type, which is passed on unchanged.
 *
 * @param <T> what the call returns
 * @param <X> the checked exception it may throw ({@link RuntimeException} when none)
 */
@FunctionalInterface
public interface OperationCall<T, X extends Exception> {

    /**
     * @return the call's result
     * @throws X the call's own failure, passed on unchanged
     */
    T call() throws X;
}
