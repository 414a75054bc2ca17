package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaBroker} on the real Kafka broker, one for the class (each test leaves it running, and
 * uses topics and groups of its own): it answers on loopback, takes and serves records with keys
 * and headers to a group, keeps records and a group's offsets across a SIGKILL, and frees its ports
 * when stopped.
 */
class KafkaBrokerTest {

    private static KafkaBroker broker;
    private static KafkaRecords records;

    @BeforeAll
    static void startBroker() {
        long started = System.nanoTime();
        broker = KafkaBroker.start();
        System.err.printf(
                "[idemkit-it] %s started in %d ms%n",
                broker, (System.nanoTime() - started) / 1_000_000);
        records = broker.records();
    }

    @AfterAll
    static void closeBroker() {
        if (broker != null) {
            broker.close();
            assertThat(broker.folder()).doesNotExist();
        }
    }

    @Test
    void started_isOneNodeOnLoopback_holdingItsPorts() throws Exception {
        assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + broker.port());
        try (Admin admin = records.admin()) {
            Collection<Node> nodes = admin.describeCluster().nodes().get();
            assertThat(nodes)
                    .singleElement()
                    .satisfies(
                            node -> {
                                assertThat(node.host()).isEqualTo("127.0.0.1");
                                assertThat(node.port()).isEqualTo(broker.port());
                            });
        }
        assertThat(TestPorts.free(broker.port())).isFalse();
        assertThat(TestPorts.free(broker.controllerPort())).isFalse();
        assertThat(broker.folder()).startsWith(Path.of("target").toAbsolutePath());
        assertThat(broker.folder().resolve("data").resolve("meta.properties")).exists();
    }

    @Test
    void aTopicOfThreePartitions_takesKeysAndHeaders_andAGroupReadsThemAll() {
        String topic = "orders-" + UUID.randomUUID();
        records.createTopic(topic, 3);
        List<ProducerRecord<String, String>> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            RecordHeaders headers = new RecordHeaders();
            headers.add("request-id", ("req-" + i).getBytes(StandardCharsets.UTF_8));
            sent.add(new ProducerRecord<>(topic, null, "key-" + i, "value-" + i, headers));
        }

        List<RecordMetadata> written = records.send(sent);

        assertThat(written).extracting(RecordMetadata::partition).allMatch(p -> p >= 0 && p < 3);
        try (KafkaConsumer<String, String> consumer =
                records.consumer("group-" + UUID.randomUUID())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<String, String>> read = KafkaRecords.poll(consumer, 6);
            assertThat(read)
                    .extracting(ConsumerRecord::key, ConsumerRecord::value)
                    .containsExactlyInAnyOrder(
                            sent.stream()
                                    .map(r -> tuple(r.key(), r.value()))
                                    .toArray(Tuple[]::new));
            assertThat(read)
                    .allSatisfy(
                            r ->
                                    assertThat(
                                                    new String(
                                                            r.headers()
                                                                    .lastHeader("request-id")
                                                                    .value(),
                                                            StandardCharsets.UTF_8))
                                            .isEqualTo(
                                                    "req-" + r.key().substring("key-".length())));
        }
    }

    @Test
    void killThenRestart_onTheSamePorts_keepsRecordsAndTheGroupsCommittedOffset() {
        String topic = "crash-" + UUID.randomUUID();
        String group = "group-" + UUID.randomUUID();
        TopicPartition partition = new TopicPartition(topic, 0);
        records.createTopic(topic, 1);
        List<ProducerRecord<String, String>> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(new ProducerRecord<>(topic, "k" + i, "r" + i));
        }
        records.send(sent);
        try (KafkaConsumer<String, String> consumer = records.consumer(group)) {
            consumer.subscribe(List.of(topic));
            assertThat(KafkaRecords.poll(consumer, 5)).hasSize(5);
            // the group has handled the first three only
            consumer.commitSync(Map.of(partition, new OffsetAndMetadata(3)));
        }
        int port = broker.port();
        int controllerPort = broker.controllerPort();
        long pid = broker.pid();

        broker.kill();

        assertThat(broker.running()).isFalse();
        assertThat(ProcessHandle.of(pid)).isEmpty();
        broker.restart();
        assertThat(broker.port()).isEqualTo(port);
        assertThat(broker.controllerPort()).isEqualTo(controllerPort);
        assertThat(broker.pid()).isNotEqualTo(pid);
        assertThat(records.readFromBeginning(topic, 5))
                .extracting(ConsumerRecord::value)
                .containsExactly("r0", "r1", "r2", "r3", "r4");
        try (KafkaConsumer<String, String> consumer = records.consumer(group)) {
            consumer.subscribe(List.of(topic));
            assertThat(KafkaRecords.poll(consumer, 2))
                    .extracting(ConsumerRecord::value)
                    .containsExactly("r3", "r4");
        }
    }

    @Test
    void stop_freesBothPorts_andRestartServesTheKeptRecords() {
        String topic = "stop-" + UUID.randomUUID();
        records.createTopic(topic, 2);
        records.send(List.of(new ProducerRecord<>(topic, "k", "kept")));

        broker.stop();

        assertThat(broker.running()).isFalse();
        assertThat(TestPorts.free(broker.port())).isTrue();
        assertThat(TestPorts.free(broker.controllerPort())).isTrue();
        broker.restart();
        assertThat(records.readFromBeginning(topic, 1))
                .extracting(ConsumerRecord::key, ConsumerRecord::value)
                .containsExactly(tuple("k", "kept"));
    }
}
