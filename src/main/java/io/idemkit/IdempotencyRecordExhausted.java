package io.idemkit;

import java.util.Objects;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A CDI event: an {@link Idempotent} {@code @Incoming} method failed on one record {@code
 * idemkit.message.max-attempts} times, so the record is acknowledged without running the method
 * again, and its record in the store says it was given up (contract C17.4). Observers run
 * synchronously before the acknowledgement; one that throws makes the library nack the record, so
 * that the channel's failure strategy applies (a dead-letter topic on WildFly's connector). Fired
 * once per stored give-up.
 *
 * <p>Fired too, with {@code attempts} 0, for a record acknowledged without running because its key
 * was used before with another payload ({@code lastFailure} begins with {@code payload mismatch}),
 * and, with an empty {@code effectiveKey}, for one whose scope could not be resolved ({@code scope
 * unavailable}).
 *
 * @param operation the bean class and method, as {@code com.example.Orders.consume()}
 * @param effectiveKey the effective key of the record, as the admin API and the logs name it; empty
 *     for a record whose scope could not be resolved
 * @param attempts how many times the method ran for this record
 * @param lastFailure the class name of the last failure this server saw for the record, or a
 *     sentence saying that it happened elsewhere; never the exception's message, which may hold
 *     application data
 * @param message the message as the connector delivered it, for forwarding (an {@code Emitter} to a
 *     dead-letter topic)
 */
public record IdempotencyRecordExhausted(
        String operation,
        String effectiveKey,
        long attempts,
        String lastFailure,
        Message<?> message) {

    /** Validates the components. */
    public IdempotencyRecordExhausted {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(effectiveKey, "effectiveKey");
        Objects.requireNonNull(lastFailure, "lastFailure");
        Objects.requireNonNull(message, "message");
    }
}
