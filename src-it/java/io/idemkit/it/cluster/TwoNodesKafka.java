package io.idemkit.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.kafka.KafkaScenarios;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;

/**
 * Two servers in one Kafka consumer group (C17.3): {@link TwoNodes}' Open Liberty servers, or
 * WildFly's in {@code KafkaWildFlyIT}, run the Kafka test application ({@link
 * KafkaScenarios#twoNodesWar}) on the JDBC store on one PostgreSQL, its {@code payments} channel
 * reading a topic of four partitions in one group, so that each server owns two. Each key is sent
 * to all four partitions, so that its copies reach both servers at about the same time: one run per
 * key across the two.
 */
public final class TwoNodesKafka {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int PARTITIONS = 4;
    private static final int KEYS = 6;

    private TwoNodesKafka() {}

    /**
     * Sends each key to the four partitions, and checks that it ran once across the two servers.
     *
     * @param kafka the Kafka application on each of the two servers
     */
    public static void copiesOfAKeyOnBoth_runOncePerKey(HttpCalls... kafka) throws Exception {
        awaitBothServersOwnPartitions();
        List<String> tags = new ArrayList<>();
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
            String tag = UUID.randomUUID().toString().substring(0, 8);
            tags.add(tag);
            for (int p = 0; p < PARTITIONS; p++) {
                ProducerRecord<String, String> record =
                        new ProducerRecord<>(
                                KafkaScenarios.TWO_NODES_TOPIC, p, "c" + p, "slow:" + tag);
                record.headers()
                        .add("IdempotencyKey", ("two-" + tag).getBytes(StandardCharsets.UTF_8));
                records.add(record);
            }
        }
        long before = committedTotal();

        KafkaScenarios.broker().records().send(records);

        // Every copy acknowledged, on whichever server owns its partition.
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> committedTotal() - before >= (long) KEYS * PARTITIONS);
        for (String tag : tags) {
            assertThat(runs(kafka[0], tag) + runs(kafka[1], tag)).as("runs of " + tag).isEqualTo(1);
        }
    }

    private static void awaitBothServersOwnPartitions() {
        Awaitility.await("both servers own partitions of the topic")
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(500))
                .until(
                        () -> {
                            Collection<MemberDescription> members = group().members();
                            return members.size() == 2
                                    && members.stream().allMatch(TwoNodesKafka::ownsPartitions);
                        });
    }

    private static boolean ownsPartitions(MemberDescription member) {
        return member.assignment().topicPartitions().stream()
                .anyMatch(p -> p.topic().equals(KafkaScenarios.TWO_NODES_TOPIC));
    }

    private static ConsumerGroupDescription group() throws Exception {
        try (Admin admin = KafkaScenarios.broker().records().admin()) {
            return admin.describeConsumerGroups(List.of(KafkaScenarios.TWO_NODES_GROUP))
                    .all()
                    .get()
                    .get(KafkaScenarios.TWO_NODES_GROUP);
        }
    }

    private static long committedTotal() throws Exception {
        try (Admin admin = KafkaScenarios.broker().records().admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets(KafkaScenarios.TWO_NODES_GROUP)
                            .partitionsToOffsetAndMetadata()
                            .get();
            long total = 0;
            for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
                if (e.getKey().topic().equals(KafkaScenarios.TWO_NODES_TOPIC)
                        && e.getValue() != null) {
                    total += e.getValue().offset();
                }
            }
            return total;
        }
    }

    private static int runs(HttpCalls kafka, String tag) {
        return Integer.parseInt(kafka.get("api/kafka/" + tag + "/runs").text().strip());
    }
}
