package io.idemkit.reactive;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * A record as Open Liberty's Kafka connector hands it to an {@code @Incoming} method: a {@code
 * Message} whose {@code unwrap(ConsumerRecord.class)} gives the Kafka client's record, whose {@code
 * getAck} and {@code getNack} are its own (so that {@code withPayload} keeps them, as Liberty's
 * {@code IncomingKafkaMessage} does), and which counts its acknowledgements and nacks. {@link
 * #onAck} runs inside the acknowledgement, before it is counted.
 */
final class KafkaMessage implements Message<String> {

    final ConsumerRecord<String, String> record;
    final AtomicInteger acks = new AtomicInteger();
    final AtomicInteger nacks = new AtomicInteger();
    volatile Runnable onAck = () -> {};

    private KafkaMessage(ConsumerRecord<String, String> record) {
        this.record = record;
    }

    /** A record at {@code offset} of partition 0 of topic {@code orders}, without a timestamp. */
    static KafkaMessage at(long offset, String payload) {
        return new KafkaMessage(new ConsumerRecord<>("orders", 0, offset, "customer-7", payload));
    }

    /** A record at {@code offset} of partition 0 of topic {@code orders}, with its record key. */
    static KafkaMessage withRecordKey(long offset, String recordKey, String payload) {
        return new KafkaMessage(new ConsumerRecord<>("orders", 0, offset, recordKey, payload));
    }

    /** The same, with the producer's idempotency key in header {@code IdempotencyKey}. */
    static KafkaMessage keyed(long offset, String key, String payload) {
        KafkaMessage message = at(offset, payload);
        message.record.headers().add("IdempotencyKey", key.getBytes(StandardCharsets.UTF_8));
        return message;
    }

    /** A record at {@code offset} with {@code key} in the header {@code name}. */
    static KafkaMessage withHeader(long offset, String name, String key, String payload) {
        KafkaMessage message = at(offset, payload);
        message.record.headers().add(name, key.getBytes(StandardCharsets.UTF_8));
        return message;
    }

    @Override
    public String getPayload() {
        return record.value();
    }

    @Override
    public CompletionStage<Void> ack() {
        onAck.run();
        acks.incrementAndGet();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public Supplier<CompletionStage<Void>> getAck() {
        return this::ack;
    }

    @Override
    public Function<Throwable, CompletionStage<Void>> getNack() {
        return this::nack;
    }

    @Override
    public CompletionStage<Void> nack(Throwable reason) {
        nacks.incrementAndGet();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public <C> C unwrap(Class<C> type) {
        if (type.isInstance(record)) {
            return type.cast(record);
        }
        throw new IllegalArgumentException("cannot unwrap to " + type);
    }
}
