package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocator of the ports the tests' own servers listen on: outside the kernel's ephemeral
 * range, never the same twice in a run, never one someone listens on, and a server whose port was
 * taken all the same is started once more on another.
 */
class TestPortsTest {

    @Test
    void everyPort_isOutsideTheKernelsEphemeralRange_andAboveTheBuildsFixedPorts() {
        int[] ephemeral =
                TestPorts.ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));

        for (int i = 0; i < 200; i++) {
            int port = TestPorts.next();
            assertThat(port < ephemeral[0] || port > ephemeral[1])
                    .as("port %d outside %d-%d", port, ephemeral[0], ephemeral[1])
                    .isTrue();
            assertThat(port).isGreaterThanOrEqualTo(TestPorts.FIXED_PORTS_END).isLessThan(65_536);
        }
    }

    @Test
    void portsAreUniqueWithinARun_evenAcrossThreads() throws Exception {
        Set<Integer> seen = java.util.Collections.synchronizedSet(new HashSet<>());
        AtomicInteger drawn = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread =
                    new Thread(
                            () -> {
                                for (int i = 0; i < 250; i++) {
                                    seen.add(TestPorts.next());
                                    drawn.incrementAndGet();
                                }
                            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(seen).hasSize(drawn.get());
    }

    @Test
    void aPortSomeoneListensOn_isNotFree() throws IOException {
        try (ServerSocket listener = TestPorts.bindLoopback(1)) {
            assertThat(TestPorts.free(listener.getLocalPort())).isFalse();
        }
    }

    @Test
    void theRange_isReadFromTheKernelsSetting(@TempDir Path dir) throws IOException {
        Path setting = dir.resolve("ip_local_port_range");
        Files.writeString(setting, "40000\t50000\n");

        assertThat(TestPorts.ephemeralRange(setting)).containsExactly(40000, 50000);
        assertThat(TestPorts.ephemeralRange(dir.resolve("absent")))
                .as("Linux's default where there is no setting")
                .containsExactly(32768, 60999);
    }

    @Test
    void thePool_liesBelowTheRange_orAboveItWhereThereIsNoRoomBelow() {
        assertThat(TestPorts.pool(new int[] {32768, 60999})).containsExactly(20768, 32767);
        assertThat(TestPorts.pool(new int[] {11500, 50000})).containsExactly(50001, 62000);
        assertThatThrownBy(() -> TestPorts.pool(new int[] {11500, 65000}))
                .hasMessageContaining("leaves no room");
    }

    @Test
    void aPortWithAnOffset_hasItsDerivedPortValidFreeAndOutsideTheEphemeralRange() {
        int[] ephemeral = TestPorts.EPHEMERAL;
        for (int i = 0; i < 20; i++) {
            int bus = TestPorts.next(TestPorts.withFreeOffset(10_000)) + 10_000;

            assertThat(bus).isLessThanOrEqualTo(65_535);
            assertThat(bus < ephemeral[0] || bus > ephemeral[1])
                    .as("bus port %d outside %d-%d", bus, ephemeral[0], ephemeral[1])
                    .isTrue();
            assertThat(TestPorts.free(bus)).isTrue();
        }
    }

    @Test
    void aPortWhoseDerivedPortSomeoneListensOn_doesNotFit() throws IOException {
        int derived;
        try (ServerSocket listener = TestPorts.bindLoopback(1)) {
            derived = listener.getLocalPort();
            assertThat(TestPorts.withFreeOffset(1).test(derived - 1)).isFalse();
        }
        assertThat(TestPorts.withFreeOffset(1).test(derived - 1)).isTrue();
        assertThat(TestPorts.withFreeOffset(65_535).test(1)).as("past 65535").isFalse();
        assertThatThrownBy(() -> TestPorts.next(port -> false))
                .hasMessageContaining("no free port");
    }

    @Test
    void aServerWhosePortIsTaken_isStartedOnceMoreOnAnother() throws IOException {
        List<Integer> tried = new ArrayList<>();

        try (ServerSocket server =
                TestPorts.start(
                        "a test server",
                        port -> {
                            tried.add(port);
                            if (tried.size() == 1) {
                                // Someone took it between the check and the bind.
                                try (ServerSocket squatter =
                                        new ServerSocket(
                                                port, 1, InetAddress.getLoopbackAddress())) {
                                    return new ServerSocket(
                                            port, 1, InetAddress.getLoopbackAddress());
                                }
                            }
                            return new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
                        })) {

            assertThat(tried).hasSize(2).doesNotHaveDuplicates();
            assertThat(server.getLocalPort()).isEqualTo(tried.get(1));
        }
    }
}
