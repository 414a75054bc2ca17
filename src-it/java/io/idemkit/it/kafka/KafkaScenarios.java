package io.idemkit.it.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.KafkaBroker;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OwnServer;
import io.idemkit.it.kafka.app.Payments;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reference's six queue vectors (C17, conformance file {@code queue_scenarios}) on Kafka, each
 * test named after its {@code id}: an {@code @Idempotent @Incoming} method of a real server's
 * Reactive Messaging, a real broker ({@link KafkaBroker}, one KRaft node on loopback), the JDBC
 * store on a PostgreSQL outside the server, so that a claim outlives a killed server. Each
 * runtime's IT class starts its server with the application and, beside it, {@link #badLeaseWar}.
 *
 * <p>A record is acknowledged when its group's committed offset passes it: the tests read that from
 * the broker, not from the application. Each IT class carries its own {@code @OnRuntimes}.
 */
public abstract class KafkaScenarios {

    /** A path of the application that answers 200 once it runs. */
    static final String PROBE = "api/kafka/probe/runs";

    static final String SIGNATURE =
            "consume(org.eclipse.microprofile.reactive.messaging.Message)"
                    + "java.util.concurrent.CompletionStage";

    /** The application refused for its lease ({@link #badLeaseWar}). */
    static final String BAD_LEASE_APP = "kafka-bad-lease";

    private static final Duration WAIT = Duration.ofSeconds(90);

    /** This JVM's topics and groups, new for each IT class's JVM run. */
    public static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    static final String TOPIC = "payments-" + RUN;
    static final String RACE_TOPIC = "race-" + RUN;
    static final String ORDERS_TOPIC = "orders-" + RUN;
    static final String QUOTES_TOPIC = "quotes-" + RUN;
    static final String DEAD_LETTER_TOPIC = "dead-letters-" + RUN;
    public static final String GROUP = "idemkit-" + RUN;
    static final List<String> RACERS = List.of("a", "b", "c", "d");

    static HttpCalls http;

    String tag;

    @TempDir Path markers;

    @BeforeEach
    void newTag() {
        tag = UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates this JVM's topics on the shared broker, once. */
    public static KafkaBroker broker() {
        KafkaBroker broker = KafkaBroker.shared();
        synchronized (KafkaScenarios.class) {
            if (!created) {
                broker.records().createTopic(TOPIC, 1);
                broker.records().createTopic(RACE_TOPIC, 1);
                broker.records().createTopic(ORDERS_TOPIC, 1);
                broker.records().createTopic(QUOTES_TOPIC, 1);
                broker.records().createTopic(DEAD_LETTER_TOPIC, 1);
                broker.records().createTopic(TWO_NODES_TOPIC, 4);
                for (String topic :
                        List.of(TOPIC, RACE_TOPIC, ORDERS_TOPIC, QUOTES_TOPIC, DEAD_LETTER_TOPIC)) {
                    broker.records().createTopic(BAD + topic, 1);
                    broker.records().createTopic(TWO + topic, 1);
                }
                created = true;
            }
        }
        return broker;
    }

    private static boolean created;

    /** How the topics and groups of {@link #badLeaseWar} begin. */
    private static final String BAD = "bad-";

    /**
     * How the topics and groups of {@link #twoNodesWar} begin, but its {@code payments} channel's:
     * its other consumers must not take part in the other application's races, on one store.
     */
    private static final String TWO = "two-";

    /**
     * @param name the WAR's name, which is also the application's
     * @param connector the runtime's Kafka connector ({@code liberty-kafka}, {@code
     *     smallrye-kafka})
     * @param config more of the application's {@code microprofile-config.properties}: its store
     * @return the Kafka test application, with the library and the Kafka client
     */
    static WebArchive war(String name, String connector, String config) {
        String channels =
                name.equals(BAD_LEASE_APP)
                        ? KafkaAppConfig.channels(connector, BAD, BAD, BAD + TOPIC)
                        : KafkaAppConfig.channels(connector, "", "", TOPIC);
        return war(name, channels + config);
    }

    private static WebArchive war(String name, String config) {
        WebArchive war =
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(Payments.class.getPackage())
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsResource(
                                new StringAsset(config), "META-INF/microprofile-config.properties");
        return LibraryJar.addKafkaClient(LibraryJar.addTo(war));
    }

    /** The topic of {@link #twoNodesWar}'s {@code payments} channel: four partitions. */
    public static final String TWO_NODES_TOPIC = "two-nodes-" + RUN;

    /** The consumer group of {@link #twoNodesWar}'s {@code payments} channel. */
    public static final String TWO_NODES_GROUP = "two-" + GROUP;

    /**
     * @param name the WAR's name
     * @param connector the runtime's Kafka connector
     * @param storeConfig the application's store, and more of its configuration
     * @return the Kafka test application for two servers in one consumer group: its {@code
     *     payments} channel reads {@link #TWO_NODES_TOPIC} in {@link #TWO_NODES_GROUP}
     */
    public static WebArchive twoNodesWar(String name, String connector, String storeConfig) {
        broker();
        return war(
                name, KafkaAppConfig.channels(connector, TWO, TWO, TWO_NODES_TOPIC) + storeConfig);
    }

    /**
     * @return the application refused at deployment (C17.3): its lease (5 s) is not shorter than
     *     its channel's {@code max.poll.interval.ms} (5 s); the reference's
     *     queue-lease-shorter-than-visibility. On the in-memory store, on topics and in groups of
     *     its own, so that nothing of it could reach the other application's records, even if its
     *     channels connected (a refusal at deployment validation comes after a Reactive Messaging
     *     runtime connects them, and WildFly leaves them running).
     */
    static WebArchive badLeaseWar(String connector) {
        return war(
                BAD_LEASE_APP,
                connector,
                "idemkit.store=memory\nmp.messaging.incoming.payments.max.poll.interval.ms=5000\n");
    }

    /**
     * @return the server of this class, running the application and {@link #badLeaseWar}
     */
    abstract OwnServer server();

    /** Waits until the server has refused {@code app}, and says why. */
    abstract String refusal(String app) throws Exception;

    /**
     * @return the application's root on {@link #server()}
     */
    abstract URI application();

    /**
     * @return a new store on the application's records, from this JVM; the caller closes it
     */
    abstract IdempotencyStore storeOfAnotherProcess();

    @Test
    void queue_at_least_once_dedup() {
        long first = send(keyed("ok", "Q1-" + tag), 5);

        awaitCommitted(GROUP, TOPIC, first + 5);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(count("done")).isEqualTo(1);
    }

    @Test
    void queue_concurrent_redelivery() {
        // One record, received by four consumers at about the same time: one runs, for half a
        // second; the three others wait for it, and are acknowledged without running.
        ProducerRecord<String, String> record = new ProducerRecord<>(RACE_TOPIC, "c", tag);
        header(record, "Q2-" + tag);
        long offset = broker().records().send(List.of(record)).get(0).offset();

        for (String racer : RACERS) {
            awaitCommitted(GROUP + "-" + racer, RACE_TOPIC, offset + 1);
        }
        assertThat(count("runs")).isEqualTo(1);
    }

    @Test
    void queue_crash_recovery() throws Exception {
        try (IdempotencyStore store = storeOfAnotherProcess()) {
            String key = "Q3-" + tag;
            String effectiveKey =
                    EffectiveKey.forMethod(
                            key,
                            ScopeResolver.SINGLE_TENANT_SCOPE,
                            Payments.class.getName(),
                            SIGNATURE);
            Path marker = markers.resolve("blocked");
            long offset = send(keyed("block:" + tag + ":" + marker.toAbsolutePath(), key), 1);
            Awaitility.await().atMost(WAIT).until(() -> count("blocked") == 1);
            IdempotencyRecord claimed = store.find(effectiveKey).orElseThrow();
            assertThat(claimed.state()).isEqualTo(RecordState.CLAIMED);
            ClaimToken deadToken = claimed.token();

            server().kill();
            restart();

            // Not committed, so the record comes back once the dead consumer has left its group;
            // the dead claim's lease (5 s) runs out; then one run, and the commit.
            awaitCommitted(GROUP, TOPIC, offset + 1);
            assertThat(count("runs")).isEqualTo(1);
            assertThat(count("done")).isEqualTo(1);
            IdempotencyRecord completed = store.find(effectiveKey).orElseThrow();
            assertThat(completed.state()).isEqualTo(RecordState.COMPLETED);
            assertThat(completed.token()).isNotEqualTo(deadToken);
            // The dead consumer's late completion is fenced out (C2).
            boolean zombie =
                    store.complete(
                            effectiveKey,
                            deadToken,
                            new StoredResult(
                                    200, List.of(), "zombie".getBytes(StandardCharsets.UTF_8)),
                            Duration.ofHours(1));
            assertThat(zombie).isFalse();
        }
    }

    @Test
    void queue_lease_shorter_than_visibility() throws Exception {
        assertThat(refusal(BAD_LEASE_APP))
                .contains(
                        "The lease of "
                                + Payments.class.getName()
                                + ".consume() (5s) must be shorter than the max.poll.interval.ms of"
                                + " its channel payments"
                                + " (mp.messaging.incoming.payments.max.poll.interval.ms=5000)");
        assertThat(http.get(PROBE).status()).isEqualTo(200);
        // Refused before its channels connect: its consumer never joins its group, and a record on
        // its topic stays unread.
        String refusedGroup = BAD + GROUP;
        broker().records().send(List.of(new ProducerRecord<>(BAD + TOPIC, "c", "ok:" + tag)));
        Awaitility.await()
                .during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(
                        () ->
                                members(refusedGroup) == 0
                                        && committed(refusedGroup, BAD + TOPIC) < 0);
    }

    @Test
    void queue_poison_dlq() {
        long offset = send(keyed("fail", "Q5-" + tag), 1);

        awaitCommitted(GROUP, TOPIC, offset + 1);
        Awaitility.await().atMost(WAIT).until(() -> count("exhausted") == 1);
        assertThat(count("runs")).isEqualTo(3);
        assertThat(count("exhausted-attempts-3")).isEqualTo(1);
        assertThat(count("done")).isZero();
        awaitDeadLetter("fail:" + tag);
        // Acknowledged, so the channel goes on: the next record runs, and this one never again.
        String next = tag + "-next";
        long after = send(keyed("ok:" + next, "Q5-next-" + tag), 1);
        awaitCommitted(GROUP, TOPIC, after + 1);
        assertThat(count(next, "done")).isEqualTo(1);
        assertThat(count("runs")).isEqualTo(3);
        assertThat(count("exhausted")).isEqualTo(1);
    }

    @Test
    void queue_result_bearing_replay() {
        // An order sent twice under one key: the stage runs once, and the duplicate sends the
        // first run's quote on again, rather than nothing or a new quote.
        ProducerRecord<String, String> order = new ProducerRecord<>(ORDERS_TOPIC, "c", tag);
        header(order, "Q6-" + tag);
        long first = send(order, 2);

        awaitCommitted(GROUP + "-orders", ORDERS_TOPIC, first + 2);
        List<String> quotes = new ArrayList<>();
        Awaitility.await()
                .atMost(WAIT)
                .until(
                        () -> {
                            quotes.clear();
                            broker().records().readFromBeginning(QUOTES_TOPIC, 1).stream()
                                    .map(ConsumerRecord::value)
                                    .filter(quote -> quote.startsWith(tag + " costs "))
                                    .forEach(quotes::add);
                            return quotes.size() >= 2;
                        });
        assertThat(quotes).hasSize(2);
        assertThat(quotes.get(1)).isEqualTo(quotes.get(0));
        assertThat(count("runs")).isEqualTo(1);
    }

    /**
     * A poison record's attempts are counted in the store, so a restart does not give it three
     * more: two runs before a kill (the second blocks), one after, then given up and forwarded.
     */
    @Test
    void poison_attemptsCountedInTheStore_outliveARestart_andTheRecordReachesTheDeadLetterTopic()
            throws Exception {
        Path marker = markers.resolve("blocked");
        String payload = "fail-block:" + tag + ":" + marker.toAbsolutePath();
        long offset = send(keyed(payload, "P-" + tag), 1);
        Awaitility.await().atMost(WAIT).until(() -> count("blocked") == 1);
        assertThat(count("runs")).isEqualTo(2);

        server().kill();
        restart();

        awaitCommitted(GROUP, TOPIC, offset + 1);
        assertThat(count("runs")).as("runs after the restart").isEqualTo(1);
        assertThat(count("exhausted-attempts-3")).isEqualTo(1);
        awaitDeadLetter(payload);
    }

    @Test
    void aResendWithoutAKey_isANewRecord_andRunsAgain() {
        ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, "c", "ok:" + tag);

        long first = send(record, 2);

        awaitCommitted(GROUP, TOPIC, first + 2);
        assertThat(count("runs")).isEqualTo(2);
    }

    @Test
    void aResendKeyedByTheExtractorFromItsPayload_runsOnce() {
        ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, "c", "once:" + tag);

        long first = send(record, 2);

        awaitCommitted(GROUP, TOPIC, first + 2);
        assertThat(count("runs")).isEqualTo(1);
        assertThat(count("done")).isEqualTo(1);
    }

    private static void awaitDeadLetter(String payload) {
        Awaitility.await()
                .atMost(WAIT)
                .until(
                        () ->
                                broker().records().readFromBeginning(DEAD_LETTER_TOPIC, 1).stream()
                                        .anyMatch(r -> r.value().equals(payload)));
    }

    /** Restarts the server after a kill, and waits until its application answers. */
    void restart() throws Exception {
        server().start(application().resolve(PROBE));
        http = new HttpCalls(application());
    }

    private ProducerRecord<String, String> keyed(String mode, String key) {
        String payload = mode.contains(":") ? mode : mode + ":" + tag;
        ProducerRecord<String, String> record = new ProducerRecord<>(TOPIC, "customer-7", payload);
        header(record, key);
        return record;
    }

    private static void header(ProducerRecord<String, String> record, String key) {
        record.headers().add("IdempotencyKey", key.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends {@code record} {@code times} times in order; returns the offset of the first. */
    private static long send(ProducerRecord<String, String> record, int times) {
        List<ProducerRecord<String, String>> records = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            records.add(record);
        }
        return broker().records().send(records).get(0).offset();
    }

    private int count(String event) {
        return count(tag, event);
    }

    private static int count(String tag, String event) {
        return Integer.parseInt(http.get("api/kafka/" + tag + "/" + event).text().strip());
    }

    private static void awaitCommitted(String group, String topic, long offset) {
        Awaitility.await()
                .atMost(WAIT)
                .pollInterval(Duration.ofMillis(250))
                .until(() -> committed(group, topic) >= offset);
    }

    /** The members of {@code group}: none when no consumer ever joined it. */
    private static int members(String group) throws Exception {
        try (Admin admin = broker().records().admin()) {
            return admin.describeConsumerGroups(List.of(group))
                    .describedGroups()
                    .get(group)
                    .get()
                    .members()
                    .size();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return 0;
            }
            throw e;
        }
    }

    private static long committed(String group, String topic) throws Exception {
        try (Admin admin = broker().records().admin()) {
            OffsetAndMetadata offset =
                    admin.listConsumerGroupOffsets(group)
                            .partitionsToOffsetAndMetadata()
                            .get()
                            .get(new TopicPartition(topic, 0));
            return offset == null ? -1 : offset.offset();
        }
    }
}
