package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans.Booking;
import io.idemkit.method.Beans.Flights;
import io.idemkit.spi.MethodResultCodec;
import io.idemkit.testsupport.DownStore;
import io.idemkit.testsupport.FakeTransactions;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.transaction.Status;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the interceptor takes from its environment: JTA transactions (completion only after commit,
 * release on rollback), a pluggable result codec, and the store's failures (on-storage-error).
 */
class MethodEnvironmentTest {

    private final TestDeployment deployment = new TestDeployment();
    private Flights flights;

    @BeforeEach
    void reset() {
        Beans.reset();
        FakeTransactions.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private WeldContainer start(Class<?>... extra) {
        Class<?>[] classes = new Class<?>[extra.length + 2];
        classes[0] = Flights.class;
        classes[1] = Beans.EventLog.class;
        System.arraycopy(extra, 0, classes, 2, extra.length);
        WeldContainer weld = deployment.start(classes);
        flights = weld.select(Flights.class).get();
        return weld;
    }

    @Test
    void insideATransaction_theRecordCompletesOnlyAfterCommit() {
        start(FakeTransactions.class);
        FakeTransactions.status = Status.STATUS_ACTIVE;

        Booking first = flights.rebook("t1", "SFO", "JFK");
        assertThat(Beans.events).as("no outcome before the transaction ends").isEmpty();
        FakeTransactions.end(Status.STATUS_COMMITTED);

        assertThat(flights.rebook("t1", "SFO", "JFK")).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void insideATransactionThatRollsBack_theKeyIsReleasedAndTheNextCallRuns() {
        start(FakeTransactions.class);
        FakeTransactions.status = Status.STATUS_ACTIVE;

        flights.rebook("t2", "SFO", "JFK");
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        assertThat(flights.rebook("t2", "SFO", "JFK").run()).isEqualTo(2);
    }

    @Test
    void insideATransactionMarkedRollbackOnly_theKeyIsReleasedAtOnce() {
        start(FakeTransactions.class);
        FakeTransactions.status = Status.STATUS_MARKED_ROLLBACK;

        flights.rebook("t3", "SFO", "JFK");

        assertThat(FakeTransactions.synchronizations).isEmpty();
        FakeTransactions.status = Status.STATUS_NO_TRANSACTION;
        assertThat(flights.rebook("t3", "SFO", "JFK").run()).isEqualTo(2);
    }

    @Test
    void applicationCodecBean_replacesTheJsonbCodec() {
        start(ReversingCodec.class);

        String first = flights.quote("SFO", "JFK");
        String replayed = flights.quote("SFO", "JFK");

        assertThat(replayed).isEqualTo(first);
        assertThat(ReversingCodec.used).hasPositiveValue();
    }

    @Test
    void storeDownUnderFailClosed_refusesWithoutRunning() {
        start(DownStore.class);

        assertThatThrownBy(() -> flights.quote("SFO", "JFK"))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("store is down");
        assertThat(Beans.executions).hasValue(0);
        assertThat(Beans.decisions()).containsExactly(Decision.STORAGE_ERROR);
    }

    @Test
    void storeDownUnderFailOpen_runsUnprotected() {
        deployment.set("idemkit.on-storage-error", "fail-open");
        start(DownStore.class);

        assertThat(flights.quote("SFO", "JFK")).isEqualTo("SFO-JFK-1");
        assertThat(flights.quote("SFO", "JFK")).isEqualTo("SFO-JFK-2");
        assertThat(Beans.decisions())
                .containsExactly(Decision.RAN_UNPROTECTED, Decision.RAN_UNPROTECTED);
    }

    /** An application's codec: JSON strings, stored reversed, to prove it is the one used. */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class ReversingCodec implements MethodResultCodec {
        static final AtomicInteger used = new AtomicInteger();

        @Override
        public byte[] encode(Object value, Type type) {
            used.incrementAndGet();
            return new StringBuilder((String) value)
                    .reverse()
                    .toString()
                    .getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Object decode(byte[] bytes, Type type) {
            return new StringBuilder(new String(bytes, StandardCharsets.UTF_8))
                    .reverse()
                    .toString();
        }
    }
}
