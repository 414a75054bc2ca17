package io.idemkit.it.harness;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;

/**
 * The test's own Kafka clients of a {@link KafkaBroker}, on string keys and values: topics created
 * with {@link Admin}, records sent with their keys and headers, topics read from the beginning, and
 * consumers in a group that commit only when told. Each call opens its clients and closes them,
 * except those it returns, which the caller closes.
 */
public final class KafkaRecords {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final String bootstrapServers;

    KafkaRecords(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * @return a new admin client of the broker; the caller closes it
     */
    public Admin admin() {
        Properties settings = new Properties();
        settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        return Admin.create(settings);
    }

    /**
     * Creates a topic (replication factor 1) and waits until every partition has its leader.
     *
     * @param name the topic
     * @param partitions how many partitions, 1 or more
     */
    public void createTopic(String name, int partitions) {
        Objects.requireNonNull(name, "name");
        try (Admin admin = admin()) {
            get(admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all());
            Awaitility.await()
                    .atMost(WAIT)
                    .pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(IllegalStateException.class)
                    .until(
                            () -> {
                                TopicDescription topic =
                                        get(admin.describeTopics(List.of(name)).allTopicNames())
                                                .get(name);
                                return topic.partitions().size() == partitions
                                        && topic.partitions().stream()
                                                .allMatch(p -> p.leader() != null);
                            });
        }
    }

    /**
     * @return a new producer: {@code acks=all}, idempotent; the caller closes it
     */
    public KafkaProducer<String, String> producer() {
        Properties settings = new Properties();
        settings.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        settings.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        settings.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        settings.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WAIT.toMillis());
        return new KafkaProducer<>(settings, new StringSerializer(), new StringSerializer());
    }

    /**
     * Sends records, in order, and waits until the broker has acknowledged each one.
     *
     * @param records the records, with their topic, key, headers and, where given, partition
     * @return where each one was written, in order
     */
    public List<RecordMetadata> send(List<ProducerRecord<String, String>> records) {
        try (KafkaProducer<String, String> producer = producer()) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            records.forEach(record -> sent.add(producer.send(record)));
            producer.flush();
            List<RecordMetadata> written = new ArrayList<>();
            for (Future<RecordMetadata> future : sent) {
                written.add(get(future));
            }
            return written;
        }
    }

    /**
     * @param groupId its consumer group
     * @return a new consumer in that group: from the earliest offset where the group has none,
     *     committing only what the caller commits ({@code enable.auto.commit=false}); the caller
     *     subscribes, and closes it
     */
    public KafkaConsumer<String, String> consumer(String groupId) {
        Properties settings = consumerSettings();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, Objects.requireNonNull(groupId, "groupId"));
        return new KafkaConsumer<>(settings, new StringDeserializer(), new StringDeserializer());
    }

    /**
     * Reads a topic from its beginning, every partition, with no consumer group (nothing
     * committed), until {@code count} records have come or 30 s have passed.
     *
     * @param topic the topic
     * @param count how many records to wait for
     * @return the records read (more than {@code count} where more came in the last poll)
     * @throws org.awaitility.core.ConditionTimeoutException when fewer came
     * @throws IllegalStateException when the broker has no such topic
     */
    public List<ConsumerRecord<String, String>> readFromBeginning(String topic, int count) {
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(
                        consumerSettings(), new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(topic).stream()
                            .map(info -> new TopicPartition(topic, info.partition()))
                            .toList();
            if (partitions.isEmpty()) {
                throw new IllegalStateException("the broker has no topic " + topic);
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return poll(consumer, count);
        }
    }

    /**
     * Polls a consumer until {@code count} records have come or 30 s have passed.
     *
     * @param consumer a subscribed or assigned consumer
     * @param count how many records to wait for
     * @return the records read, in the order polled
     * @throws org.awaitility.core.ConditionTimeoutException when fewer came
     */
    public static List<ConsumerRecord<String, String>> poll(
            KafkaConsumer<String, String> consumer, int count) {
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        Awaitility.await()
                .atMost(WAIT)
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .until(
                        () -> {
                            consumer.poll(Duration.ofMillis(200)).forEach(read::add);
                            return read.size() >= count;
                        });
        return read;
    }

    private Properties consumerSettings() {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        return settings;
    }

    private static <T> T get(Future<T> future) {
        try {
            return future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("no answer from Kafka within " + WAIT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
