package io.idemkit.spi;

import java.util.Optional;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Takes the idempotency key of a record an {@code @Idempotent @Incoming} method receives from the
 * record itself: a field of its payload, a header with a name of its own making, its record key
 * rewritten (contract C17.1). The Reactive Messaging counterpart of {@link
 * IdempotencyKeyExtractor}.
 *
 * <p>Declare a CDI bean implementing this interface and name it on the method or its class with
 * {@code @Idempotent(keyExtractor = PaymentKey.class)}, or per method with the key {@code
 * com.example.Payments/consume/Idempotent/keyExtractor=com.example.PaymentKey}. The most specific
 * choice wins, and {@code keyHeader} is the other way to make it: a level that sets both fails the
 * deployment, as does a named class that is not a bean implementing this interface. No global one:
 * {@code idemkit.key-extractor} names the HTTP surface's.
 *
 * <p>The extractor is asked first. When it gives no key (an empty or blank result), or throws (one
 * warning per method, naming the exception's class only), the record is keyed as without it: its
 * key header, else its topic, partition, offset and timestamp; so a redelivery is still recognized.
 * With an extractor, a message of another connector than Kafka is protected too, when the extractor
 * gives it a key.
 *
 * <p>A key must be the same on every delivery and every resend of one message, and differ between
 * messages: the payment's own id, not the customer's.
 *
 * <p>Implementations must be thread-safe and quick, and only read: one runs for every record of its
 * methods, before the key is claimed, on the thread that delivers the record. Acknowledging or
 * nacking the message here bypasses the library's guard.
 */
@FunctionalInterface
public interface RecordKeyExtractor {

    /**
     * @param record what the extractor may read of the record
     * @return the key, or empty when the record carries none
     */
    Optional<String> keyOf(Record record);

    /** What a key can be taken from. Valid during the call only. */
    interface Record {

        /**
         * @return the message as the connector delivered it: its payload and metadata
         */
        Message<?> message();

        /**
         * @return the message's payload
         */
        default Object payload() {
            return message().getPayload();
        }

        /**
         * @return the Kafka topic the record was read from; empty for a message of another
         *     connector, or when the Kafka client is not visible to the application
         */
        Optional<String> topic();

        /**
         * @return the Kafka record's key as text: a {@code String} as it is, bytes in hexadecimal,
         *     another object by its {@code toString()}; empty without one
         */
        Optional<String> recordKey();

        /**
         * @param name a Kafka header's name, matched exactly
         * @return the header's last value as UTF-8 text; empty without it, or for a message that is
         *     no Kafka record
         */
        Optional<String> header(String name);
    }
}
