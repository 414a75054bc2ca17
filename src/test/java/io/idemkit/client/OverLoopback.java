package io.idemkit.client;

import jakarta.ws.rs.client.Client;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The fixture of the client tests over real HTTP: a {@link LoopbackServer} and a Jersey client with
 * the client half's feature, new for each test and closed after it; and a retry with the default
 * settings whose waits are recorded in {@link #waits}, not slept.
 */
abstract class OverLoopback {

    LoopbackServer server;
    Client client;

    /** The waits {@link #retry} would have slept, in order. */
    final List<Duration> waits = new ArrayList<>();

    final ClientSettings settings = ClientSettings.defaults();

    /** Retries with the default settings and a jitter of one half; records its waits. */
    final IdempotentRetry retry =
            new IdempotentRetry(
                    settings, Clock.systemUTC(), waits::add, new RetryPolicy(settings, () -> 0.5));

    @BeforeEach
    final void startServer() throws Exception {
        server = new LoopbackServer();
        client = LoopbackServer.keyedClient();
    }

    @AfterEach
    final void stopServer() {
        client.close();
        server.close();
    }
}
