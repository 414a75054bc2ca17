package io.idemkit.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FaultProxy} over real loopback sockets, in front of an echo server: what passes, what a
 * stall holds (and on which connections), what a cut closes, and that restore brings it back.
 */
class FaultProxyTest {

    /** Long enough that a forwarded echo would have arrived on loopback; a stall shows none. */
    private static final int QUIET_MILLIS = 400;

    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void start() {
        echo = TestPorts.bindLoopback(50);
        Thread acceptor =
                new Thread(
                        () -> {
                            while (!echo.isClosed()) {
                                try {
                                    Socket s = echo.accept();
                                    Thread t = new Thread(() -> echoAll(s), "echo");
                                    t.setDaemon(true);
                                    t.start();
                                } catch (IOException e) {
                                    return;
                                }
                            }
                        },
                        "echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = new FaultProxy("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void passThrough_echoesBothWays() throws IOException {
        try (Socket s = connect()) {
            assertThat(roundTrip(s, 'a')).isEqualTo('a');
            assertThat(roundTrip(s, 'b')).isEqualTo('b');
        }
        assertThat(proxy.connectionsAccepted()).isEqualTo(1);
    }

    @Test
    void stallNextSender_holdsOnlyTheConnectionThatSendsNext_untilRestore() throws Exception {
        try (Socket first = connect();
                Socket second = connect()) {
            assertThat(roundTrip(first, 'x')).isEqualTo('x');
            assertThat(roundTrip(second, 'y')).isEqualTo('y');

            var chosen = proxy.stallNextSender();
            send(second, 'q');
            assertThat(chosen.get(5, TimeUnit.SECONDS)).isEqualTo(1);
            assertSilent(second); // held, and the socket stays open: no end of stream
            assertThat(roundTrip(first, 'z')).isEqualTo('z'); // the other one still passes

            proxy.restore();
            second.setSoTimeout(5_000);
            assertThat((char) second.getInputStream().read()).isEqualTo('q'); // held, not lost
        }
    }

    @Test
    void stallByIndex_holdsThatConnection() throws Exception {
        try (Socket first = connect();
                Socket second = connect()) {
            roundTrip(first, 'a');
            roundTrip(second, 'b');
            proxy.stall(0);
            send(first, 'c');
            assertSilent(first);
            assertThat(roundTrip(second, 'd')).isEqualTo('d');
        }
        assertThatThrownBy(() -> proxy.stall(7)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stallAll_holdsOpenAndNewConnections_stallNewOnlyNewOnes() throws Exception {
        try (Socket open = connect()) {
            roundTrip(open, 'a');
            proxy.stallNew();
            try (Socket fresh = connect()) {
                send(fresh, 'n');
                assertSilent(fresh);
                assertThat(roundTrip(open, 'o')).isEqualTo('o');
            }
            proxy.stallAll();
            try (Socket later = connect()) {
                send(open, 'p');
                send(later, 'l');
                assertSilent(open);
                assertSilent(later);
            }
        }
    }

    @Test
    void cut_closesOpenConnectionsAndRefusesNewOnes_restoreServesAgain() throws Exception {
        try (Socket open = connect()) {
            roundTrip(open, 'a');
            proxy.cut();
            assertClosedByPeer(open);
            try (Socket refused = connect()) {
                assertClosedByPeer(refused);
            }
        }
        proxy.restore();
        try (Socket again = connect()) {
            assertThat(roundTrip(again, 'r')).isEqualTo('r');
        }
    }

    @Test
    void latency_holdsEachChunkAtLeastThatLong() throws IOException {
        proxy.latency(Duration.ofMillis(300));
        try (Socket s = connect()) {
            long start = System.nanoTime();
            roundTrip(s, 'a');
            // Held once on the way there and once on the way back.
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(600));
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(5_000);
        return s;
    }

    private static void send(Socket s, char c) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(c);
        out.flush();
    }

    private static char roundTrip(Socket s, char c) throws IOException {
        send(s, c);
        int read = s.getInputStream().read();
        assertThat(read).as("echo of %s", c).isNotNegative();
        return (char) read;
    }

    private static void assertSilent(Socket s) throws IOException {
        s.setSoTimeout(QUIET_MILLIS);
        assertThatThrownBy(() -> s.getInputStream().read())
                .isInstanceOf(SocketTimeoutException.class);
        s.setSoTimeout(5_000);
    }

    private static void assertClosedByPeer(Socket s) {
        int read;
        try {
            read = s.getInputStream().read();
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the connection stayed open", e);
        } catch (IOException e) {
            return; // reset
        }
        assertThat(read).as("end of stream").isEqualTo(-1);
    }

    private static void echoAll(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
                out.write(b);
                out.flush();
            }
        } catch (IOException e) {
            // peer gone
        }
    }
}
