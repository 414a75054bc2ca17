package io.idemkit.reactive;

import io.idemkit.spi.RecordKeyExtractor;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * What a {@link RecordKeyExtractor} reads of one message: the message, and the Kafka record behind
 * it when there is one and the Kafka client is visible ({@link KafkaRecordReader}); found once, on
 * the first question that needs it. Valid during the extractor's call only; not thread-safe.
 */
final class ExtractorRecord implements RecordKeyExtractor.Record {

    private final Message<?> message;
    private final boolean kafka;
    private Optional<ConsumerRecord<?, ?>> record;

    /**
     * @param message the message as the connector delivered it
     * @param kafka whether the Kafka client is visible, so that the record can be read
     */
    ExtractorRecord(Message<?> message, boolean kafka) {
        this.message = message;
        this.kafka = kafka;
    }

    @Override
    public Message<?> message() {
        return message;
    }

    @Override
    public Optional<String> topic() {
        return record().map(ConsumerRecord::topic);
    }

    @Override
    public Optional<String> recordKey() {
        return record().flatMap(KafkaRecordReader::recordKey);
    }

    @Override
    public Optional<String> header(String name) {
        return record().flatMap(r -> KafkaRecordReader.header(r, name));
    }

    private Optional<ConsumerRecord<?, ?>> record() {
        if (record == null) {
            record = kafka ? KafkaRecordReader.recordOf(message) : Optional.empty();
        }
        return record;
    }
}
