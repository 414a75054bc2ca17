package io.idemkit.it.kafka;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.KafkaBroker;
import io.idemkit.it.harness.LibertyServer;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.kafka.app.Payments;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @Idempotent} on an {@code @Incoming} method on Open Liberty (C17), with a real Kafka
 * broker ({@link KafkaBroker}, one KRaft node on loopback) and Liberty's own connector, {@code
 * liberty-kafka}, which loads the Kafka client from the application's WAR. A server of the test's
 * own adds {@code mpReactiveMessaging-3.0}, so that the shared servers keep their feature lists.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "an Open Liberty server of the test's own; WildFly is not yet proven, and Payara"
                        + " Micro 6 has no MicroProfile Reactive Messaging")
class KafkaLibertyIT {

    private static final String FEATURES =
            "  <featureManager>\n"
                    + "    <feature>mpReactiveMessaging-3.0</feature>\n"
                    + "  </featureManager>";
    private static final String TOPIC = "payments-" + UUID.randomUUID();
    private static final String GROUP = "idemkit-it";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static KafkaBroker broker;
    private static LibertyServer server;
    private static URI runs;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaBroker.shared();
        broker.records().createTopic(TOPIC, 1);
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, "kafka.war")
                        .addPackage(Payments.class.getPackage())
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsResource(
                                new StringAsset(config(broker.bootstrapServers())),
                                "META-INF/microprofile-config.properties");
        LibraryJar.addKafkaClient(LibraryJar.addTo(war));
        server = new LibertyServer("idemkit-kafka", war, FEATURES);
        server.start(server.application(war).resolve("api/runs/probe"));
        runs = server.application(war).resolve("api/runs/");
    }

    private static String config(String bootstrap) {
        String channel = "mp.messaging.incoming.payments.";
        return "idemkit.store=memory\n"
                + "idemkit.scope-mode=single-tenant\n"
                + channel
                + "connector=liberty-kafka\n"
                + channel
                + "bootstrap.servers="
                + bootstrap
                + "\n"
                + channel
                + "topic="
                + TOPIC
                + "\n"
                + channel
                + "group.id="
                + GROUP
                + "\n"
                + channel
                + "auto.offset.reset=earliest\n"
                + channel
                + "key.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n"
                + channel
                + "value.deserializer=org.apache.kafka.common.serialization.StringDeserializer\n";
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void threeRecordsWithOneIdempotencyKey_runOnce_andAreAllCommitted() {
        long firstOffset = send(keyed("order-1", "k-1"), keyed("order-1", "k-1"));
        send(keyed("order-1", "k-1"));

        awaitRuns("order-1", 1);
        // Committed past all three: each was acknowledged, the two duplicates without running.
        awaitCommittedAtLeast(firstOffset + 3);
        assertThat(runsOf("order-1")).isEqualTo(1);
    }

    @Test
    void aResendWithoutAKey_isANewRecord_andRunsAgain() {
        long first = send(new ProducerRecord<>(TOPIC, "customer-1", "order-2"));
        send(new ProducerRecord<>(TOPIC, "customer-1", "order-2"));

        awaitRuns("order-2", 2);
        awaitCommittedAtLeast(first + 2);
        assertThat(runsOf("order-2")).isEqualTo(2);
    }

    private static ProducerRecord<String, String> keyed(String payload, String key) {
        ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, "customer-1", payload);
        record.headers().add("IdempotencyKey", key.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    /** Sends the records in order; returns the offset of the first. */
    @SafeVarargs
    private static long send(ProducerRecord<String, String>... records) {
        return broker.records().send(List.of(records)).get(0).offset();
    }

    private static void awaitRuns(String payload, int expected) {
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> runsOf(payload) >= expected);
    }

    private static void awaitCommittedAtLeast(long offset) {
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(200))
                .until(() -> committed() >= offset);
    }

    private static long committed() throws Exception {
        try (Admin admin = broker.records().admin()) {
            Map<TopicPartition, OffsetAndMetadata> offsets =
                    admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
            OffsetAndMetadata offset = offsets.get(new TopicPartition(TOPIC, 0));
            return offset == null ? -1 : offset.offset();
        }
    }

    private static int runsOf(String payload) {
        try {
            HttpResponse<String> response =
                    HTTP.send(
                            HttpRequest.newBuilder(runs.resolve(payload)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
            return Integer.parseInt(response.body().strip());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
