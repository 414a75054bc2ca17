package io.idemkit;

/**
 * The idempotency key is missing, empty, longer than 255 UTF-8 bytes, or malformed, where one is
 * required. The operation was not run. Send a key of 1 to 255 bytes. HTTP: {@code 400
 * urn:idemkit:missing-key}.
 */
public class IdempotencyKeyMissingException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message which rule the key broke, without the key itself
     */
    public IdempotencyKeyMissingException(String message) {
        super(message);
    }
}
