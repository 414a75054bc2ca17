package io.idemkit;

import jakarta.jms.Message;
import java.util.Objects;

/**
 * A CDI event: an {@link Idempotent} message-driven bean failed on one message {@code
 * idemkit.message.max-attempts} times, so the message is acknowledged without running the bean
 * again, and its record says it was given up (contract C11.3). Observers run synchronously inside
 * the delivery's transaction, before the acknowledgement: a forward of the message to a dead-letter
 * queue on a transacted JMS context commits with the acknowledgement, or rolls back with it (and
 * the next delivery fires the event again). Fired once per committed exhaustion.
 *
 * <p>Fired too, with {@code attempts} 0, for a message acknowledged without running because its key
 * was used before with another body ({@code idemkit.message.fingerprint=body}): another producer of
 * the destination may have sent the key first, and the message should reach a dead-letter queue
 * rather than vanish. Its {@code lastFailure} then starts with {@code payload mismatch}.
 *
 * <p>Fired too, with {@code attempts} 0 and an empty {@code effectiveKey}, for a message
 * acknowledged without running because its scope could not be resolved: the application's {@link
 * IdempotencyScopeProvider} threw or answered nothing during the delivery (C11.6). A redelivery
 * would meet the same provider, so the message is handed over rather than retried. Its {@code
 * lastFailure} then starts with {@code scope unavailable}.
 *
 * @param operation the bean class and method, as {@code com.example.OrdersBean.onMessage()}
 * @param effectiveKey the effective key of the message (a hash of its key, the scope and the
 *     operation), as the admin API and the logs name it; empty for a message whose scope could not
 *     be resolved
 * @param attempts how many times the bean ran for this message
 * @param lastFailure the class name of the last failure this server saw for the message (as {@code
 *     java.lang.IllegalStateException}), or a sentence saying that it happened elsewhere (another
 *     server, or before a restart). Never the exception's message, which may hold application data:
 *     the library logs that at {@code DEBUG} ({@code FINE}) only
 * @param message the message, for forwarding
 */
public record IdempotencyMessageExhausted(
        String operation, String effectiveKey, long attempts, String lastFailure, Message message) {

    /**
     * Validates the components.
     *
     * @param operation the bean class and method
     * @param effectiveKey the effective key of the message
     * @param attempts how many times the bean ran for this message
     * @param lastFailure the last failure this server saw, or why there is none
     * @param message the message
     */
    public IdempotencyMessageExhausted {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(lastFailure, "lastFailure");
        Objects.requireNonNull(message, "message");
    }
}
