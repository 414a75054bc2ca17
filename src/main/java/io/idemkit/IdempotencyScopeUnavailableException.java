package io.idemkit;

/**
 * A scope source is configured, but it yielded no scope for this call, so the call cannot be placed
 * in a tenant's key space. It is refused rather than run in a shared key space, which would let one
 * tenant replay another's result. Fix the {@link IdempotencyScopeProvider} (or authenticate the
 * caller). HTTP: {@code 500 urn:idemkit:identity-unavailable}.
 */
public class IdempotencyScopeUnavailableException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message which source yielded nothing
     */
    public IdempotencyScopeUnavailableException(String message) {
        super(message);
    }
}
