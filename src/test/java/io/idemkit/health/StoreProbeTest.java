package io.idemkit.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.ForwardingStore;
import io.idemkit.testsupport.OutageStore;
import java.time.Clock;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * What the readiness check shows of a store that cannot answer: the kind of failure, never the
 * driver's message, which can name hosts and users; that message goes to the log at FINE only.
 */
class StoreProbeTest {

    @Test
    void aStoreThatFails_isDownWithTheKindOnly_andItsMessageIsLoggedAtFineOnly() {
        OutageStore outage = new OutageStore(new InMemoryIdempotencyStore(Clock.systemUTC(), 10));
        outage.goDown();

        StoreHealth health;
        try (CapturedLog log = CapturedLog.withFine(StoreProbe.class)) {
            health = StoreProbe.probe(outage.store());

            assertThat(log.warnings()).isEmpty();
            assertThat(log.texts(Level.FINE)).anySatisfy(t -> assertThat(t).contains("10.1.2.3"));
        }
        assertThat(health.up()).isFalse();
        assertThat(health.details()).containsEntry("store", "memory");
        assertThat(health.details().toString()).doesNotContain("10.1.2.3");
        assertThat((String) health.details().get("error"))
                .contains("cannot serve claims (failed)")
                .contains(StoreProbe.class.getName());
    }

    @Test
    void anUnreachableJdbcStore_saysUnreachable_notTheDriversWords() {
        IdempotencyStore store =
                new ForwardingStore(new InMemoryIdempotencyStore(Clock.systemUTC(), 10)) {
                    @Override
                    public StoreHealth health() {
                        throw new IdempotencyStorageException(
                                IdempotencyStorageException.Kind.UNREACHABLE,
                                "JDBC store health failed: FATAL: password authentication failed"
                                        + " for user \"app_admin\" on db.internal:5432",
                                null);
                    }
                };

        StoreHealth health = StoreProbe.probe(store);

        assertThat(health.up()).isFalse();
        assertThat((String) health.details().get("error"))
                .contains("(unreachable)")
                .doesNotContain("db.internal", "app_admin");
    }
}
