package io.idemkit.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A real Apache Kafka broker of the test's own: one node in KRaft mode ({@code
 * process.roles=broker,controller}, no ZooKeeper), in a JVM of its own so that tests can stop it,
 * kill it (SIGKILL) and start it again on the same ports and log folder. It listens on 127.0.0.1
 * only, on two ports of {@link TestPorts} (clients, controller); its files are in a folder of its
 * own under {@code target/kafka-brokers}. Its class path is {@code kafka_2.13} as Maven resolves it
 * alone, which the build copies to {@code target/kafka-broker-lib} (system property {@code
 * idemkit.kafka-broker-lib}): none of the broker's jars is on the test class path.
 *
 * <p>Settings for a fast, light start and a lone node: replication factors 1 (offsets, transaction
 * state, share state), no initial rebalance delay, topics created by the tests only ({@code
 * auto.create.topics.enable=false}), 1 MiB segments, a 256 MiB heap. The clients of {@link
 * KafkaRecords} talk to it.
 *
 * <p>Every broker this JVM starts is killed, and its folder deleted, by a shutdown hook at the
 * latest. Not thread safe: one test class drives a broker (start one per class, or share {@link
 * #shared()}, never stopped); {@link #shared()} is safe to obtain from any thread.
 */
public final class KafkaBroker implements AutoCloseable {

    private static final String HOST = "127.0.0.1";

    /**
     * Generous: six builds may share the machine's 2 cores; a first start takes 2 to 5 s here, a
     * restart after {@link #kill()} 5 to 11 s (the killed broker's session must lapse first).
     */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private static final Path LIB =
            Path.of(System.getProperty("idemkit.kafka-broker-lib", "target/kafka-broker-lib"))
                    .toAbsolutePath();
    private static final Path BROKERS = Path.of("target", "kafka-brokers").toAbsolutePath();
    private static final Set<KafkaBroker> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile KafkaBroker shared;

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> LIVE.forEach(KafkaBroker::closeAtExit),
                                "idemkit-kafka-brokers"));
    }

    private final int port;
    private final int controllerPort;
    private final Path folder;
    private final Map<String, String> overrides;
    private final String clusterId = Uuid.randomUuid().toString();
    private Process process;

    private KafkaBroker(int port, int controllerPort, Path folder, Map<String, String> overrides) {
        this.port = port;
        this.controllerPort = controllerPort;
        this.folder = folder;
        this.overrides = Map.copyOf(overrides);
    }

    /**
     * @return a broker on 127.0.0.1, two ports of {@link TestPorts}, a new folder, started (the
     *     broker answering {@link Admin#describeCluster()})
     */
    public static KafkaBroker start() {
        return start(Map.of());
    }

    /**
     * @param overrides broker settings ({@code server.properties} names) over the defaults
     * @return a started broker, as {@link #start()}; one whose port was taken between {@link
     *     TestPorts}' check and its bind is started once more on new ports and a new folder
     */
    public static KafkaBroker start(Map<String, String> overrides) {
        Objects.requireNonNull(overrides, "overrides");
        if (!Files.isRegularFile(LIB.resolve("kafka_2.13-" + kafkaVersion() + ".jar"))) {
            throw new IllegalStateException(
                    "no Kafka broker class path in "
                            + LIB
                            + ": the build's execution kafka-broker-lib fills it"
                            + " (mvn generate-test-resources)");
        }
        return TestPorts.start(
                "kafka broker",
                port -> {
                    KafkaBroker broker =
                            new KafkaBroker(
                                    port,
                                    TestPorts.next(),
                                    BROKERS.resolve(UUID.randomUUID().toString()),
                                    overrides);
                    try {
                        broker.restart();
                        return broker;
                    } catch (RuntimeException e) {
                        broker.close();
                        throw e;
                    }
                });
    }

    /**
     * @return the one broker of this JVM, started at the first call, killed by the shutdown hook;
     *     tests that share it use topics and groups of their own and never stop or kill it
     */
    public static KafkaBroker shared() {
        KafkaBroker broker = shared;
        if (broker == null) {
            synchronized (KafkaBroker.class) {
                if (shared == null) {
                    shared = start();
                }
                broker = shared;
            }
        }
        return broker;
    }

    /**
     * @return the clients' port, the same across {@link #stop()} and {@link #restart()}
     */
    public int port() {
        return port;
    }

    /**
     * @return the controller's port (KRaft quorum), the same across restarts
     */
    public int controllerPort() {
        return controllerPort;
    }

    /**
     * @return {@code 127.0.0.1:<port>}, for {@code bootstrap.servers}
     */
    public String bootstrapServers() {
        return HOST + ":" + port;
    }

    /**
     * @return its folder: {@code server.properties}, the log folder {@code data}, {@code
     *     server.log} and {@code broker.out}
     */
    public Path folder() {
        return folder;
    }

    /**
     * @return whether its process runs
     */
    public boolean running() {
        return process != null && process.isAlive();
    }

    /**
     * @return the pid of its JVM, while it runs
     */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException(this + " never started");
        }
        return process.pid();
    }

    /**
     * @return the clients of this broker: topics, records, consumers
     */
    public KafkaRecords records() {
        return new KafkaRecords(bootstrapServers());
    }

    /**
     * Starts it (again, after {@link #stop()} or {@link #kill()}) on the same ports and log folder,
     * formatting the folder at the first start only, and waits until it answers {@link
     * Admin#describeCluster()} with itself; nothing when it runs.
     *
     * @throws IllegalStateException when it exits or does not answer in time, with its log's tail
     */
    public void restart() {
        if (running()) {
            return;
        }
        try {
            Files.createDirectories(folder);
            Files.writeString(folder.resolve("server.properties"), serverProperties());
            Files.writeString(folder.resolve("log4j2.properties"), log4jProperties());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the broker's settings in " + folder, e);
        }
        if (!Files.exists(folder.resolve("data").resolve("meta.properties"))) {
            format();
        }
        process =
                KafkaProcess.launch(
                        LIB, folder, "kafka.Kafka", folder.resolve("server.properties").toString());
        LIVE.add(this);
        try {
            awaitReady();
        } catch (RuntimeException e) {
            kill(); // a broker that failed its start is no half-running one
            throw e;
        }
    }

    /**
     * Stops it cleanly (SIGTERM: Kafka's own shutdown, logs flushed and closed) and waits up to 30
     * s until its JVM has ended, then kills it; nothing when it does not run.
     */
    public void stop() {
        if (running()) {
            process.destroy();
            KafkaProcess.awaitExit(process, Duration.ofSeconds(30));
        }
    }

    /** Kills it with SIGKILL, a crash: nothing runs at exit; waits until its JVM has ended. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            KafkaProcess.awaitExit(process, Duration.ofSeconds(10));
        }
    }

    /** Stops it where it runs and deletes its folder. */
    @Override
    public void close() {
        try {
            stop();
        } finally {
            if (running()) {
                kill();
            }
            LIVE.remove(this);
            ProcessFolder.delete(folder);
        }
    }

    @Override
    public String toString() {
        return "kafka broker " + bootstrapServers() + " in " + folder;
    }

    private String serverProperties() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("process.roles", "broker,controller");
        all.put("node.id", "1");
        all.put("controller.quorum.voters", "1@" + HOST + ":" + controllerPort);
        all.put(
                "listeners",
                "PLAINTEXT://"
                        + HOST
                        + ":"
                        + port
                        + ",CONTROLLER://"
                        + HOST
                        + ":"
                        + controllerPort);
        all.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
        all.put("controller.listener.names", "CONTROLLER");
        all.put("inter.broker.listener.name", "PLAINTEXT");
        all.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        all.put("log.dirs", folder.resolve("data").toString());
        all.put("offsets.topic.replication.factor", "1");
        all.put("offsets.topic.num.partitions", "1");
        all.put("transaction.state.log.replication.factor", "1");
        all.put("transaction.state.log.min.isr", "1");
        all.put("transaction.state.log.num.partitions", "1");
        all.put("share.coordinator.state.topic.replication.factor", "1");
        all.put("share.coordinator.state.topic.min.isr", "1");
        all.put("group.initial.rebalance.delay.ms", "0");
        all.put("auto.create.topics.enable", "false");
        all.put("num.partitions", "1");
        all.put("log.segment.bytes", String.valueOf(1024 * 1024));
        all.put("num.network.threads", "1");
        all.put("num.io.threads", "2");
        all.put("num.recovery.threads.per.data.dir", "1");
        all.put("background.threads", "2");
        all.put("log.cleaner.enable", "false");
        // After a kill, the restarted broker's registration is refused until the controller
        // has given up the killed one's session (broker.session.timeout.ms, 9 s by default):
        // 3 s instead brings that restart from 12 s down to 5 to 7 s on a quiet machine here;
        // heartbeats every 0.5 s keep a running broker's session.
        all.put("broker.heartbeat.interval.ms", "500");
        all.put("broker.session.timeout.ms", "3000");
        all.putAll(overrides);
        StringBuilder text = new StringBuilder();
        all.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        return text.toString();
    }

    private String log4jProperties() {
        return String.join(
                "\n",
                "status = warn",
                "appender.file.type = File",
                "appender.file.name = file",
                "appender.file.fileName = " + folder.resolve("server.log"),
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = [%d] %p %m (%c)%n",
                "rootLogger.level = INFO",
                "rootLogger.appenderRef.file.ref = file",
                // Every client's and the broker's whole configuration, at each start.
                "logger.config.name = org.apache.kafka.common.config",
                "logger.config.level = WARN",
                "");
    }

    /** Formats the log folder for KRaft (cluster id, metadata version): the first start only. */
    private void format() {
        Process formatting =
                KafkaProcess.launch(
                        LIB,
                        folder,
                        "kafka.tools.StorageTool",
                        "format",
                        "--cluster-id",
                        clusterId,
                        "--config",
                        folder.resolve("server.properties").toString());
        try {
            if (!formatting.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)
                    || formatting.exitValue() != 0) {
                formatting.destroyForcibly();
                throw new IllegalStateException(
                        this + ": formatting its log folder failed" + KafkaProcess.tail(folder));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            formatting.destroyForcibly();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits until the clients' port accepts a connection, then until the broker describes a cluster
     * of one node, itself; fails at once, with the log's tail, where the JVM has ended.
     */
    private void awaitReady() {
        try {
            Awaitility.await()
                    .atMost(START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> alive() && accepts());
            Properties settings = new Properties();
            settings.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
            settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
            try (Admin admin = Admin.create(settings)) {
                Awaitility.await()
                        .atMost(START_TIMEOUT)
                        .pollInterval(Duration.ofMillis(100))
                        .ignoreExceptionsInstanceOf(ExecutionException.class)
                        .ignoreExceptionsInstanceOf(TimeoutException.class)
                        .until(
                                () ->
                                        alive()
                                                && admin
                                                        .describeCluster()
                                                        .nodes()
                                                        .get(5, TimeUnit.SECONDS)
                                                        .stream()
                                                        .anyMatch(node -> node.port() == port));
            }
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(
                    this + " did not start within " + START_TIMEOUT + KafkaProcess.tail(folder), e);
        }
    }

    private boolean alive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(
                    this + " exited with " + process.exitValue() + KafkaProcess.tail(folder));
        }
        return true;
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void closeAtExit() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ProcessFolder.delete(folder);
    }

    /** The version of the broker's jars: the tests' kafka-clients, which the pom pins to it. */
    private static String kafkaVersion() {
        return org.apache.kafka.common.utils.AppInfoParser.getVersion();
    }
}
