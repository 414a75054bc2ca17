package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.health.StoreProbe;
import io.idemkit.spi.StoreHealth;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A database that cannot be reached (C3, C12): every operation fails with {@link
 * IdempotencyStorageException} of kind {@code UNREACHABLE}, carrying the driver's message and never
 * the key, and the readiness probe reports the store down instead of throwing. The data source
 * points at a loopback port nothing listens on.
 */
class JdbcOutageTest {

    @Test
    void databaseNotListening_failsAsUnreachableWithoutTheKey_andTheProbeReportsDown()
            throws IOException {
        PGSimpleDataSource nowhere = new PGSimpleDataSource();
        nowhere.setServerNames(new String[] {"127.0.0.1"});
        nowhere.setPortNumbers(new int[] {closedPort()});
        nowhere.setConnectTimeout(2);
        JdbcIdempotencyStore store =
                new JdbcIdempotencyStore(nowhere, JdbcStoreSettings.defaults());
        String key = "9".repeat(64);

        IdempotencyStorageException failure =
                catchThrowableOfType(
                        () -> store.claim(key, "f".repeat(64), 1, Duration.ofSeconds(30)),
                        IdempotencyStorageException.class);
        StoreHealth health = StoreProbe.probe(store);

        assertThat(failure.kind()).isEqualTo(IdempotencyStorageException.Kind.UNREACHABLE);
        assertThat(failure.getMessage())
                .startsWith("JDBC store start failed: ")
                .doesNotContain(key);
        assertThat(health.up()).isFalse();
        assertThat(health.details()).containsEntry("store", "jdbc").containsKey("error");
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket =
                new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
