package io.idemkit;

/**
 * The idempotency store failed or could not be reached. Stores raise only this type, carrying the
 * store's own message, never a raw driver exception. Under {@code
 * idemkit.on-storage-error=fail-closed} (the default) the operation is refused; retry later. HTTP:
 * {@code 503 urn:idemkit:storage-error} with {@code Retry-After}.
 */
public class IdempotencyStorageException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed, free of keys and payloads
     */
    public IdempotencyStorageException(String message) {
        super(message);
    }

    /**
     * @param message what failed, free of keys and payloads
     * @param cause the store's underlying failure
     */
    public IdempotencyStorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
