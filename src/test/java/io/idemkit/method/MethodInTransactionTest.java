package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyLeaseLostException;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans.Booking;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeTransactions;
import io.idemkit.testsupport.ForwardingStore;
import io.idemkit.transaction.InTransaction;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Completion inside the business transaction (C13) through the interceptor pair, on a store that
 * joins the test's transaction the way the JDBC store joins a JTA one: its completion becomes
 * visible when the transaction commits and vanishes when it rolls back. The transaction is driven
 * by hand, as an EJB's container-managed one around the whole call; the IT proves it on Open
 * Liberty with PostgreSQL.
 */
class MethodInTransactionTest {

    private final TestDeployment deployment = new TestDeployment();
    private Ledger ledger;

    @BeforeEach
    void reset() {
        Beans.reset();
        FakeTransactions.reset();
        JoiningStore.stealNext = false;
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private WeldContainer start() {
        WeldContainer weld =
                deployment.start(
                        Ledger.class,
                        Beans.EventLog.class,
                        FakeTransactions.class,
                        JoiningStore.class);
        ledger = weld.select(Ledger.class).get();
        return weld;
    }

    private static Optional<IdempotencyRecord> onlyRecord(WeldContainer weld) {
        return weld.select(JoiningStore.class).get().lastKey().flatMap(JoiningStore.memory()::find);
    }

    @Test
    void theRecordCompletesWithTheCommit_notBefore_andADuplicateThenReplays() {
        WeldContainer weld = start();
        FakeTransactions.status = Status.STATUS_ACTIVE;

        Booking first = ledger.post("p1", "SFO", "JFK");

        assertThat(onlyRecord(weld).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
        assertThat(Beans.events).as("no outcome before the commit").isEmpty();
        FakeTransactions.end(Status.STATUS_COMMITTED);

        assertThat(onlyRecord(weld).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(ledger.post("p1", "SFO", "JFK")).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void aRollback_takesTheCompletionWithIt_andFreesTheKey() {
        WeldContainer weld = start();
        FakeTransactions.status = Status.STATUS_ACTIVE;

        ledger.post("p2", "SFO", "JFK");
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        assertThat(onlyRecord(weld)).isEmpty();
        assertThat(ledger.post("p2", "SFO", "JFK").run()).isEqualTo(2);
    }

    @Test
    void aSecondCallOfTheKey_inTheTransactionThatCompletedIt_failsAtOnceSayingWhy() {
        // C13: the record's row is this transaction's until it ends; a claim could only wait
        // for itself, and end in progress after the whole wait timeout.
        start();
        FakeTransactions.status = Status.STATUS_ACTIVE;
        Booking first = ledger.post("p5", "SFO", "JFK");

        assertThatThrownBy(() -> ledger.post("p5", "SFO", "JFK"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("this same transaction completed");

        FakeTransactions.end(Status.STATUS_COMMITTED);
        assertThat(ledger.post("p5", "SFO", "JFK")).isEqualTo(first);
        assertThat(Beans.executions).hasValue(1);
    }

    @Test
    void aLeaseTakenOver_marksTheTransactionRollbackOnly_andSaysSo() {
        start();
        FakeTransactions.status = Status.STATUS_ACTIVE;
        JoiningStore.stealNext = true;

        assertThatThrownBy(() -> ledger.post("p3", "SFO", "JFK"))
                .isInstanceOf(IdempotencyLeaseLostException.class)
                .hasMessageContaining("its transaction was rolled back");

        assertThat(FakeTransactions.status).isEqualTo(Status.STATUS_MARKED_ROLLBACK);
        assertThat(Beans.decisions()).containsExactly(Decision.LEASE_RECLAIMED_LOSS);
    }

    @Test
    void withoutAnActiveTransaction_theRecordCompletesAfterTheCall_andThatIsWarnedOf() {
        WeldContainer weld = start();

        try (CapturedLog log = CapturedLog.of(InTransaction.class)) {
            Booking first = ledger.post("p4", "SFO", "JFK");
            Booking again = ledger.post("p4", "SFO", "JFK");

            assertThat(again).isEqualTo(first);
            assertThat(log.warnings()).hasSize(1);
            assertThat(log.warnings().get(0)).contains("after the call, not inside");
        }
        assertThat(onlyRecord(weld).orElseThrow().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(JoiningStore.inTransaction).isZero();
    }

    @Test
    void onTheBuiltInMemoryStore_orOnAMethodWithoutATransaction_theDeploymentFails() {
        assertThatThrownBy(() -> deployment.start(Ledger.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Ledger.post()")
                .hasMessageContaining("only the JDBC store keeps its records");
        deployment.close();

        assertThatThrownBy(() -> deployment.start(Loose.class, JoiningStore.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Loose.post()")
                .hasMessageContaining("neither @Transactional nor a method of an EJB");
    }

    /** A bean whose method completes its record inside its transaction. */
    @ApplicationScoped
    public static class Ledger {
        @Idempotent(completion = "in-transaction")
        @Transactional
        public Booking post(@IdempotencyKey String key, String origin, String destination) {
            return new Booking(origin, destination, Beans.executions.incrementAndGet());
        }
    }

    /** The same, without a transaction. */
    @ApplicationScoped
    public static class Loose {
        @Idempotent(completion = "in-transaction")
        public String post(@IdempotencyKey String key) {
            return key;
        }
    }

    /**
     * The in-memory store, with a completion that joins the test's transaction: applied by a
     * synchronization when it commits, dropped when it rolls back. {@code stealNext} makes the next
     * one find its lease taken over.
     */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class JoiningStore extends ForwardingStore {
        static volatile boolean stealNext;
        static volatile int inTransaction;
        private static volatile InMemoryIdempotencyStore memory;
        private volatile String lastKey;

        public JoiningStore() {
            super(newMemory());
        }

        private static InMemoryIdempotencyStore newMemory() {
            memory = new InMemoryIdempotencyStore(Clock.systemUTC(), 100);
            inTransaction = 0;
            return memory;
        }

        static InMemoryIdempotencyStore memory() {
            return memory;
        }

        Optional<String> lastKey() {
            return Optional.ofNullable(lastKey);
        }

        @Override
        public io.idemkit.spi.ClaimResult claim(
                String key, String fingerprint, int version, Duration leaseTtl) {
            lastKey = key;
            return super.claim(key, fingerprint, version, leaseTtl);
        }

        @Override
        public boolean completeInTransaction(
                String key, ClaimToken token, StoredResult result, Duration ttl) {
            inTransaction++;
            if (stealNext) {
                return false;
            }
            new FakeTransactions()
                    .registerInterposedSynchronization(
                            new Synchronization() {
                                @Override
                                public void beforeCompletion() {}

                                @Override
                                public void afterCompletion(int status) {
                                    if (status == Status.STATUS_COMMITTED) {
                                        memory.complete(key, token, result, ttl);
                                    }
                                }
                            });
            return true;
        }
    }
}
