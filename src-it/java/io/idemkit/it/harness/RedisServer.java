package io.idemkit.it.harness;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A real {@code redis-server} process of the test's own ({@link RedisBinary}, Redis 6.2), on
 * loopback, on a port of {@link TestPorts}, in a folder of its own, which tests can stop, crash,
 * stall and start again on the same port and folder.
 *
 * <p>Every server this JVM starts is killed, and its folder deleted, by a shutdown hook at the
 * latest, so none outlives the test JVM (one killed with SIGKILL runs no hook, though). Not thread
 * safe: one test drives a server; {@link #shared()} is safe to obtain from any thread.
 */
public final class RedisServer implements AutoCloseable {

    private static final String HOST = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<RedisServer> LIVE = ConcurrentHashMap.newKeySet();
    private static volatile RedisServer shared;

    static {
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(
                                () -> LIVE.forEach(RedisServer::closeAtExit),
                                "idemkit-redis-servers"));
    }

    private final int port;
    private final Path folder;
    private final Map<String, List<String>> options;
    private final String password;
    private final RedisServer primary;
    private Process process;
    private boolean paused;

    private RedisServer(int port, Path folder, Builder builder) {
        this.port = port;
        this.folder = folder;
        this.options = new LinkedHashMap<>(builder.options);
        this.password = builder.password;
        this.primary = builder.primary;
    }

    /**
     * @return a builder of a server on 127.0.0.1, a port of {@link TestPorts}, a new folder of the
     *     temporary folder, no snapshots ({@code --save ""}) and no AOF ({@code appendonly no})
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return the one standalone server of this JVM, started at the first call, stopped by the
     *     shutdown hook; tests that share it use fresh random keys and never stop, kill or pause it
     */
    public static RedisServer shared() {
        RedisServer server = shared;
        if (server == null) {
            synchronized (RedisServer.class) {
                if (shared == null) {
                    shared = builder().start();
                }
                server = shared;
            }
        }
        return server;
    }

    /**
     * @return the port it listens on, the same across {@link #stop()} and {@link #start()}
     */
    public int port() {
        return port;
    }

    /**
     * @return {@code "127.0.0.1"}
     */
    public String host() {
        return HOST;
    }

    /**
     * @return {@code redis://127.0.0.1:<port>}
     */
    public String uri() {
        return "redis://" + HOST + ":" + port;
    }

    /**
     * @return its working folder: the AOF, a cluster node's {@code nodes.conf}, {@code redis.log}
     */
    public Path folder() {
        return folder;
    }

    /**
     * @return its address, for cluster clients
     */
    HostAndPort hostAndPort() {
        return new HostAndPort(HOST, port);
    }

    /**
     * @return whether its process runs (stalled by {@link #pause()} included)
     */
    public boolean running() {
        return process != null && process.isAlive();
    }

    /**
     * Stops it cleanly ({@code SHUTDOWN NOSAVE}, after a {@link #resume()} where it was paused) and
     * waits until the process has ended; nothing when it does not run.
     */
    public void stop() {
        if (!running()) {
            return;
        }
        resume();
        try (Jedis jedis = connect()) {
            jedis.sendCommand(Protocol.Command.SHUTDOWN, "NOSAVE");
        } catch (JedisException e) {
            // the server closes the connection as it goes: the expected answer
        }
        awaitExit();
    }

    /** Kills it with SIGKILL, a crash: nothing is written at exit; waits until it has ended. */
    public void kill() {
        if (process != null) {
            process.destroyForcibly();
            awaitExit();
        }
    }

    /**
     * Starts it (again, after {@link #stop()} or {@link #kill()}) on the same port and folder, the
     * AOF reloaded where it is on, and waits up to 10 s until it answers {@code PING} (a replica:
     * until its link to the primary is up). A cluster node's {@code cluster_state:ok} is {@link
     * RedisCluster#awaitHealthy()}'s to wait for.
     *
     * @throws IllegalStateException when it does not answer in time (with its log's tail), its port
     *     taken included
     */
    public void start() {
        if (running()) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(RedisBinary.path().toString()));
        Map<String, List<String>> all = new LinkedHashMap<>();
        all.put("port", List.of(String.valueOf(port)));
        all.put("bind", List.of(HOST));
        all.put("protected-mode", List.of("yes"));
        all.put("daemonize", List.of("no"));
        all.put("dir", List.of(folder.toString()));
        all.put("logfile", List.of(folder.resolve("redis.log").toString()));
        all.putAll(options);
        all.forEach(
                (name, values) -> {
                    command.add("--" + name);
                    command.addAll(values);
                });
        process = RedisProcess.launch(command, folder);
        LIVE.add(this);
        paused = false;
        try {
            await("answer PING", this::answersPing);
            if (primary != null) {
                await(
                        "replicate " + primary.uri(),
                        () -> info("replication").contains("master_link_status:up"));
            }
        } catch (RuntimeException e) {
            kill(); // a server that failed its start is no half-running one
            throw e;
        }
    }

    /** Stalls it with SIGSTOP: connections stay open, nothing answers, until {@link #resume()}. */
    public void pause() {
        signal("STOP");
        paused = true;
    }

    /** Lets a {@link #pause() paused} server go on (SIGCONT); nothing when it is not paused. */
    public void resume() {
        if (paused) {
            signal("CONT");
            paused = false;
        }
    }

    /**
     * @return a new plain connection to it (authenticated where it has a password), socket timeout
     *     2 s; the caller closes it
     */
    public Jedis connect() {
        return new Jedis(hostAndPort(), config(2_000));
    }

    /**
     * @param socketTimeoutMillis how long a command may wait for its answer
     * @return a new plain connection to it, as {@link #connect()}
     */
    public Jedis connect(int socketTimeoutMillis) {
        return new Jedis(hostAndPort(), config(socketTimeoutMillis));
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
        return "redis-server " + uri() + " in " + folder;
    }

    /**
     * @return the section of {@code INFO}
     */
    String info(String section) {
        try (Jedis jedis = connect()) {
            return jedis.info(section);
        }
    }

    /**
     * Waits up to 10 s until {@code condition} holds; fails at once, with the log's tail, where the
     * process has ended.
     */
    void await(String what, BooleanSupplier condition) {
        try {
            Awaitility.await()
                    .atMost(START_TIMEOUT)
                    .pollInterval(Duration.ofMillis(25))
                    .until(
                            () -> {
                                if (!process.isAlive()) {
                                    throw new IllegalStateException(
                                            this
                                                    + " exited with "
                                                    + process.exitValue()
                                                    + RedisProcess.tail(folder));
                                }
                                try {
                                    return condition.getAsBoolean();
                                } catch (JedisException e) {
                                    return false;
                                }
                            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(
                    this
                            + " did not "
                            + what
                            + " within "
                            + START_TIMEOUT
                            + RedisProcess.tail(folder),
                    e);
        }
    }

    private boolean answersPing() {
        try (Jedis jedis = new Jedis(hostAndPort(), config(1_000))) {
            return "PONG".equals(jedis.ping());
        }
    }

    private DefaultJedisClientConfig config(int socketTimeoutMillis) {
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(1_000)
                .socketTimeoutMillis(socketTimeoutMillis)
                .password(password)
                // RESP2, as Redis 6.2 speaks it by default; Jedis warns at every connection else.
                .autoNegotiateProtocol(false)
                .build();
    }

    private void awaitExit() {
        RedisProcess.awaitExit(process);
        paused = false;
    }

    private void signal(String signal) {
        if (!running()) {
            throw new IllegalStateException(this + " does not run");
        }
        RedisProcess.signal(process, signal);
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

    /** How to start a {@link RedisServer}; each setting is a {@code redis-server} option. */
    public static final class Builder {

        private final Map<String, List<String>> options = new LinkedHashMap<>();
        private String password;
        private RedisServer primary;
        private boolean cluster;

        private Builder() {
            options.put("save", List.of(""));
            options.put("appendonly", List.of("no"));
        }

        /**
         * @param always whether to keep an AOF, {@code appendfsync always}: every acknowledged
         *     write survives a {@link RedisServer#kill()}
         * @return this builder
         */
        public Builder appendOnly(boolean always) {
            options.put("appendonly", List.of(always ? "yes" : "no"));
            if (always) {
                options.put("appendfsync", List.of("always"));
            } else {
                options.remove("appendfsync");
            }
            return this;
        }

        /**
         * @param bytes {@code maxmemory}, e.g. {@code "2mb"}
         * @param policy {@code maxmemory-policy}, e.g. {@code "noeviction"}, {@code "allkeys-lru"}
         * @return this builder
         */
        public Builder maxMemory(String bytes, String policy) {
            options.put("maxmemory", List.of(bytes));
            options.put("maxmemory-policy", List.of(policy));
            return this;
        }

        /**
         * @param primary the server to replicate (its password becomes {@code masterauth}); {@link
         *     RedisServer#start()} then waits until the link to it is up
         * @return this builder
         */
        public Builder replicaOf(RedisServer primary) {
            this.primary = Objects.requireNonNull(primary, "primary");
            options.put("replicaof", List.of(HOST, String.valueOf(primary.port())));
            if (primary.password != null) {
                options.put("masterauth", List.of(primary.password));
            }
            return this;
        }

        /**
         * @param password {@code requirepass}; {@link RedisServer#connect()} authenticates with it
         * @return this builder
         */
        public Builder requirePass(String password) {
            this.password = Objects.requireNonNull(password, "password");
            options.put("requirepass", List.of(password));
            return this;
        }

        /**
         * A cluster node ({@code cluster-enabled yes}, {@code nodes.conf} in its folder), for
         * {@link RedisCluster}: its port is one whose cluster bus port, the port + 10000 (Redis 6.2
         * has no {@code cluster-port}), is valid, free and outside the ephemeral range.
         *
         * @return this builder
         */
        public Builder clusterEnabled() {
            cluster = true;
            options.put("cluster-enabled", List.of("yes"));
            options.put("cluster-config-file", List.of("nodes.conf"));
            return this;
        }

        /**
         * @param name any other {@code redis-server} option, without {@code --}
         * @param value its value; spaces separate its arguments
         * @return this builder
         */
        public Builder config(String name, String value) {
            options.put(
                    Objects.requireNonNull(name, "name"),
                    List.of(Objects.requireNonNull(value, name).split(" ", -1)));
            return this;
        }

        /**
         * @return the started server, answering {@code PING}; one whose port was taken between
         *     {@link TestPorts}' check and its bind is started once more on another port and a new
         *     folder
         */
        public RedisServer start() {
            RedisBinary.path(); // where there is none, the test aborts here, not in the port retry
            return TestPorts.start(
                    "redis-server",
                    cluster ? TestPorts.withFreeOffset(10_000) : port -> true,
                    port -> {
                        RedisServer server =
                                new RedisServer(
                                        port, Files.createTempDirectory("idemkit-redis-"), this);
                        try {
                            server.start();
                            return server;
                        } catch (RuntimeException e) {
                            server.close();
                            throw e;
                        }
                    });
        }
    }
}
