package io.idemkit.reactive;

import io.idemkit.config.MessageKeySource;
import io.idemkit.config.MessagePolicy;
import io.idemkit.core.hash.LengthPrefixedSha256;
import io.idemkit.method.Attempts;
import io.idemkit.method.MethodPlan;
import io.idemkit.spi.RecordKeyExtractor;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * What identifies one record to {@link RecordDelivery} (C17.1): its key, the one the method's
 * extractor takes from it when it names one and the extractor gives one, else the record's own key
 * where the method's key source says so ({@link MessageKeySource#RECORD_KEY}), else the key header
 * ({@link RecordKeying#header()}) when the producer set it (a resend is then a duplicate), else
 * where and when it was written (redeliveries only); and its fingerprint, the payload's when asked
 * for. A warning goes to the caller's {@code warnOnce(topic, text)}.
 *
 * @param key the record's key, or {@code null} for a message that is no Kafka record and that no
 *     extractor gave a key
 * @param fingerprint the record's fingerprint
 */
record RecordIdentity(String key, String fingerprint) {

    /** The fingerprint of every record when the payload is not fingerprinted: the reference's. */
    static final String KEY_ONLY_FINGERPRINT = Attempts.KEY_ONLY_FINGERPRINT;

    private static final boolean KAFKA = KafkaRecordReader.available();

    static RecordIdentity of(
            Message<?> message,
            RecordKeying keying,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce) {
        return new RecordIdentity(
                keyOf(message, keying, plan, warnOnce),
                fingerprint(message, keying.policy(), plan, warnOnce));
    }

    private static String keyOf(
            Message<?> message,
            RecordKeying keying,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce) {
        if (keying.extractor().isPresent()) {
            Optional<String> extracted =
                    extracted(message, keying.extractor().get(), plan, warnOnce);
            if (extracted.isPresent()) {
                return extracted.get();
            }
        }
        if (!KAFKA) {
            return null;
        }
        return KafkaRecordReader.recordOf(message)
                .map(record -> ofRecord(record, keying, plan, warnOnce))
                .orElse(null);
    }

    /** The extractor's key; empty when it gives none, or throws (with one warning per method). */
    private static Optional<String> extracted(
            Message<?> message,
            RecordKeyExtractor extractor,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce) {
        Optional<String> key;
        try {
            key = extractor.keyOf(new ExtractorRecord(message, KAFKA));
        } catch (RuntimeException e) {
            warnOnce.accept(
                    plan.description() + "/extractor",
                    "idemkit's key extractor "
                            + extractor.getClass().getName()
                            + " threw "
                            + e.getClass().getName()
                            + " on a record for "
                            + plan.description()
                            + ": such records are keyed as without it, by their key header, else"
                            + " their topic, partition, offset and timestamp (logged once per"
                            + " method).");
            return Optional.empty();
        }
        return key == null ? Optional.empty() : key.filter(k -> !k.isBlank());
    }

    private static String ofRecord(
            ConsumerRecord<?, ?> record,
            RecordKeying keying,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce) {
        if (keying.policy().keySource() == MessageKeySource.RECORD_KEY) {
            Optional<String> key = KafkaRecordReader.recordKey(record);
            if (key.isPresent()) {
                return key.get();
            }
            warnOnce.accept(
                    plan.description() + "/no-record-key",
                    "idemkit received a record for "
                            + plan.description()
                            + " without a record key, which keySource=record-key keys it by; such"
                            + " records are keyed by the "
                            + keying.header()
                            + " header, else their topic, partition, offset and timestamp.");
        }
        Optional<String> header = KafkaRecordReader.header(record, keying.header());
        if (header.isPresent() && !header.get().isBlank()) {
            return header.get();
        }
        if (header.isPresent()) {
            warnOnce.accept(
                    plan.description() + "/blank",
                    "idemkit received a record for "
                            + plan.description()
                            + " whose "
                            + keying.header()
                            + " header is blank; such records are keyed by their topic,"
                            + " partition, offset and timestamp, so that a resend of one is not"
                            + " recognized as a duplicate.");
        }
        return KafkaRecordReader.coordinates(record);
    }

    private static String fingerprint(
            Message<?> message,
            MessagePolicy policy,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce) {
        if (!policy.fingerprintBody()) {
            return KEY_ONLY_FINGERPRINT;
        }
        Object payload = message.getPayload();
        byte[] body;
        if (payload == null) {
            body = new byte[0];
        } else if (payload instanceof String text) {
            body = text.getBytes(StandardCharsets.UTF_8);
        } else if (payload instanceof byte[] bytes) {
            body = bytes;
        } else {
            warnOnce.accept(
                    plan.description() + "/body",
                    "idemkit fingerprints String and byte[] payloads only; the records of "
                            + plan.description()
                            + " are compared by their key alone.");
            return KEY_ONLY_FINGERPRINT;
        }
        return LengthPrefixedSha256.hex(body);
    }
}
