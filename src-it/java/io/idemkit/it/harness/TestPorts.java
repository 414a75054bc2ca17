package io.idemkit.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.IntPredicate;

/**
 * The one allocator of the ports that the tests' own servers, databases and proxies listen on.
 *
 * <p>A port that was free a moment ago is not enough: a port the kernel picks for a listener on
 * port 0 comes from the kernel's ephemeral range, the range every outgoing connection of the build
 * takes its local port from, so any socket can take it between the test's check and the server's
 * bind seconds later. This allocator hands out ports <em>outside</em> that range ({@link
 * #EPHEMERAL}, read from {@code /proc/sys/net/ipv4/ip_local_port_range} where present), in {@link
 * #POOL}, each one checked free by binding it on loopback, and each one once per run: a counter in
 * a file of the machine's temporary folder, taken under a file lock, goes round the pool, so two
 * JVMs of one build (or two builds on one machine) never draw the same port in the same round.
 *
 * <p>What can still happen, another program binding the port between the check and the server, is
 * handled where a server starts: it is started once more on new ports, and says so ({@link
 * #retrying}).
 */
public final class TestPorts {

    /** The kernel's ephemeral range, {@code {lowest, highest}}. */
    static final int[] EPHEMERAL =
            ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));

    /**
     * Below it are the fixed ports of the build's own servers (Liberty 9080+, WildFly 8080+offset
     * and 9990+offset, Payara Micro 8080+, the demos), which the pool keeps clear of.
     */
    static final int FIXED_PORTS_END = 11_000;

    /** The ports handed out, {@code {lowest, highest}}: outside {@link #EPHEMERAL}. */
    static final int[] POOL = pool(EPHEMERAL);

    private static final Path COUNTER =
            Path.of(System.getProperty("java.io.tmpdir"), "idemkit-test-ports.counter");

    private TestPorts() {}

    /**
     * @return a port outside the ephemeral range that no one listens on, not handed out before in
     *     this round of the pool
     */
    public static int next() {
        return next(port -> true);
    }

    /**
     * @param fits what else the port must fulfil, for a server that also listens on a port derived
     *     from it (a Redis Cluster node's bus on the port + 10000: {@link #withFreeOffset})
     * @return a port outside the ephemeral range that no one listens on and that fits, not handed
     *     out before in this round of the pool
     * @throws IllegalStateException when no port of the pool is free and fits
     */
    public static int next(IntPredicate fits) {
        for (int tries = 0; tries < POOL[1] - POOL[0] + 1; tries++) {
            int port = draw(fits);
            if (port < 0) {
                break;
            }
            if (free(port)) {
                return port;
            }
        }
        throw new IllegalStateException(
                "no free port in " + POOL[0] + "-" + POOL[1] + " that fits the server");
    }

    /**
     * @param offset the distance of a second port the server derives from its port
     * @return the ports whose port + {@code offset} is a port (at most 65535), outside the
     *     ephemeral range too (where any outgoing connection could take it) and free
     */
    public static IntPredicate withFreeOffset(int offset) {
        return port -> {
            int derived = port + offset;
            return derived <= 65_535
                    && (derived < EPHEMERAL[0] || derived > EPHEMERAL[1])
                    && free(derived);
        };
    }

    /**
     * @param backlog the listen backlog
     * @return a server socket bound on loopback to a port of {@link #next()}, for a proxy of the
     *     test's own: bound at once, so nothing can take its port afterwards
     */
    public static ServerSocket bindLoopback(int backlog) {
        return start(
                "a proxy",
                port -> new ServerSocket(port, backlog, InetAddress.getLoopbackAddress()));
    }

    /** Starts a server on a given port. */
    @FunctionalInterface
    public interface Start<T> {
        /**
         * @param port the port the server is to listen on
         * @return the started server
         * @throws Exception when it did not start
         */
        T on(int port) throws Exception;
    }

    /**
     * Starts a server of the test's own on a port of {@link #next()}; when it does not start (its
     * port taken after the check, above all), starts it once more on another, saying so.
     *
     * @param what the server, for the log
     * @param start starts it on a port
     * @return the started server
     */
    public static <T> T start(String what, Start<T> start) {
        return start(what, port -> true, start);
    }

    /**
     * As {@link #start(String, Start)}, on ports of {@link #next(IntPredicate)}.
     *
     * @param what the server, for the log
     * @param fits what else its port must fulfil
     * @param start starts it on a port
     * @return the started server
     */
    public static <T> T start(String what, IntPredicate fits, Start<T> start) {
        int port = next(fits);
        try {
            return start.on(port);
        } catch (Exception e) {
            retrying(what, port, e);
        }
        int again = next(fits);
        try {
            return start.on(again);
        } catch (Exception e) {
            throw new IllegalStateException(what + " did not start on port " + again, e);
        }
    }

    /**
     * Says, in the test's log, that a server is started once more because its port was taken.
     *
     * @param what the server
     * @param port the port it could not bind
     * @param cause what it reported
     */
    public static void retrying(String what, int port, Object cause) {
        System.err.println(
                "[idemkit-it] "
                        + what
                        + " could not bind port "
                        + port
                        + " ("
                        + cause
                        + "): starting it once more on new ports");
    }

    /**
     * @param port a port
     * @return whether it could be bound on loopback, IPv4 and (where the machine has it) IPv6, that
     *     is whether no one listens on it there
     */
    static boolean free(int port) {
        try (ServerSocket v4 = new ServerSocket()) {
            v4.bind(new InetSocketAddress("127.0.0.1", port), 1);
        } catch (IOException e) {
            return false;
        }
        try (ServerSocket v6 = new ServerSocket()) {
            v6.bind(new InetSocketAddress("::1", port), 1);
        } catch (BindException e) {
            return false;
        } catch (IOException e) {
            // no IPv6 loopback on this machine: nothing can listen there either
        }
        return true;
    }

    /**
     * The next port of the pool that fits, from the counter shared by every JVM on the machine, or
     * -1 when none does; the ports passed over count as drawn.
     */
    private static synchronized int draw(IntPredicate fits) {
        try (FileChannel file =
                        FileChannel.open(
                                COUNTER,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.READ,
                                StandardOpenOption.WRITE);
                FileLock lock = file.lock()) {
            ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES);
            int size = POOL[1] - POOL[0] + 1;
            int offset =
                    file.read(buffer, 0) == Integer.BYTES
                            ? Math.floorMod(buffer.flip().getInt(), size)
                            // A first draw on this machine starts anywhere in the pool.
                            : (int) Math.floorMod(ProcessHandle.current().pid() * 7919L, size);
            for (int i = 0; i < size; i++) {
                int at = (offset + i) % size;
                if (fits.test(POOL[0] + at)) {
                    file.write(ByteBuffer.allocate(Integer.BYTES).putInt(0, (at + 1) % size), 0);
                    return POOL[0] + at;
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use " + COUNTER, e);
        }
    }

    /**
     * @param setting the kernel's setting, "{@code lowest highest}"
     * @return the ephemeral range it gives, or Linux's default (32768-60999) where there is none
     */
    static int[] ephemeralRange(Path setting) {
        try {
            if (Files.isReadable(setting)) {
                String[] bounds = Files.readString(setting).trim().split("\\s+");
                return new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1])};
            }
        } catch (IOException | RuntimeException e) {
            // fall through to the default
        }
        return new int[] {32768, 60999};
    }

    /**
     * @param ephemeral the ephemeral range
     * @return up to 12,000 ports below it and above the build's fixed ports, or, where there is no
     *     room below, above it
     */
    static int[] pool(int[] ephemeral) {
        int lowest = Math.max(FIXED_PORTS_END, ephemeral[0] - 12_000);
        if (ephemeral[0] - lowest >= 1_000) {
            return new int[] {lowest, ephemeral[0] - 1};
        }
        if (65_535 - ephemeral[1] >= 1_000) {
            return new int[] {ephemeral[1] + 1, Math.min(65_535, ephemeral[1] + 12_000)};
        }
        throw new IllegalStateException(
                "the ephemeral range "
                        + ephemeral[0]
                        + "-"
                        + ephemeral[1]
                        + " leaves no room for the tests' servers: narrow it"
                        + " (net.ipv4.ip_local_port_range)");
    }
}
