package io.idemkit.reactive;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Reads the Kafka record behind a message, the one class of the library that uses the Kafka client:
 * loaded only when that client is visible to the application ({@link #available()}). Each runtime
 * hands the record out its own way: SmallRye's connector (WildFly) as metadata, {@code
 * IncomingKafkaRecordMetadata.getRecord()}, Open Liberty's as {@code unwrap(ConsumerRecord.class)}
 * (MicroProfile Reactive Messaging 3.0 there has no metadata).
 */
final class KafkaRecordReader {

    private static final String SMALLRYE_METADATA =
            "io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata";

    private KafkaRecordReader() {}

    /**
     * @return whether the Kafka client can be loaded by the library's class loader
     */
    static boolean available() {
        try {
            Class.forName(
                    "org.apache.kafka.clients.consumer.ConsumerRecord",
                    false,
                    KafkaRecordReader.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * @return the record behind {@code message}, or empty for a message of another connector
     */
    static Optional<ConsumerRecord<?, ?>> recordOf(Message<?> message) {
        Optional<ConsumerRecord<?, ?>> fromMetadata = fromMetadata(message);
        if (fromMetadata.isPresent()) {
            return fromMetadata;
        }
        try {
            return Optional.of(message.unwrap(ConsumerRecord.class));
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty(); // SmallRye's own records cannot be unwrapped
        }
    }

    /**
     * @return the last value of header {@code name} as UTF-8 text, or empty without one
     */
    static Optional<String> header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        if (header == null || header.value() == null) {
            return Optional.empty();
        }
        return Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }

    /**
     * @return the record's key as text: a {@code String} as it is, bytes in hexadecimal, another
     *     object by its {@code toString()}; empty for a record without a key, or with a blank one
     */
    static Optional<String> recordKey(ConsumerRecord<?, ?> record) {
        Object key = record.key();
        String text =
                key instanceof byte[] bytes
                        ? HexFormat.of().formatHex(bytes)
                        : key == null ? null : key.toString();
        return text == null || text.isBlank() ? Optional.empty() : Optional.of(text);
    }

    /**
     * The key of a record that carries none of its own: where it was written, and when. A
     * redelivery (a consumer that died before its commit, a rebalance, a replay from an earlier
     * offset) is the same record; a producer's resend is another. The timestamp tells apart the
     * records of a topic deleted and created again, whose offsets start over.
     */
    static String coordinates(ConsumerRecord<?, ?> record) {
        return "kafka:"
                + record.topic()
                + "/"
                + record.partition()
                + "@"
                + record.offset()
                + "/"
                + record.timestamp();
    }

    /** SmallRye's {@code message.getMetadata(IncomingKafkaRecordMetadata.class)}, reflectively. */
    private static Optional<ConsumerRecord<?, ?>> fromMetadata(Message<?> message) {
        try {
            Method getMetadata = Message.class.getMethod("getMetadata", Class.class);
            Class<?> type =
                    Class.forName(SMALLRYE_METADATA, false, message.getClass().getClassLoader());
            Optional<?> metadata = (Optional<?>) getMetadata.invoke(message, type);
            if (metadata.isEmpty()) {
                return Optional.empty();
            }
            Object record = type.getMethod("getRecord").invoke(metadata.get());
            return record instanceof ConsumerRecord<?, ?> consumerRecord
                    ? Optional.of(consumerRecord)
                    : Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty(); // not SmallRye's API, or not its Kafka connector
        }
    }
}
