package io.idemkit.transaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.TransactionTimeout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.naming.NameNotFoundException;
import org.junit.jupiter.api.Test;

/**
 * Reading the transaction timeout of a new transaction from each runtime (C11.4), on objects shaped
 * like what each one binds (the method names and signatures of Open Liberty 26's {@code
 * com.ibm.wsspi.uow.UOWManager}, WildFly 39's {@code ContextTransactionManager} and Payara 6's
 * {@code TransactionManagerHelper}), behind a non-public implementation class as a runtime's is.
 */
public class ServerTransactionTimeoutTest {

    @Test
    void openLiberty_runsAGlobalTransaction_andAsksItsTimeoutInsideIt() {
        LibertyUow uow = new LibertyUow(60);

        Optional<TransactionTimeout> read =
                ServerTransactionTimeout.read(
                        bound(Map.of(ServerTransactionTimeout.LIBERTY_UOW_MANAGER, uow)));

        assertThat(read)
                .contains(TransactionTimeout.readFrom(Duration.ofSeconds(60), "Open Liberty"));
        assertThat(read.get().origin())
                .isEqualTo("Open Liberty's transaction timeout, 1m, read from the server");
        assertThat(uow.calls).containsExactly("runUnderUOW(1, false)", "getUOWTimeout");
    }

    @Test
    void wildFly_asksItsTransactionManager() {
        Optional<TransactionTimeout> read =
                ServerTransactionTimeout.read(
                        bound(
                                Map.of(
                                        ServerTransactionTimeout.WILDFLY_TRANSACTION_MANAGER,
                                        new WildFlyManager(300))));

        assertThat(read).map(TransactionTimeout::value).contains(Duration.ofMinutes(5));
        assertThat(read.get().origin()).startsWith("WildFly's transaction timeout, 5m");
    }

    @Test
    void payara_beginsATransaction_readsItsRemainingTime_andRollsItBack() {
        PayaraManager manager = new PayaraManager(0);

        Optional<TransactionTimeout> read =
                ServerTransactionTimeout.read(
                        bound(
                                Map.of(
                                        ServerTransactionTimeout.PAYARA_TRANSACTION_MANAGER,
                                        manager)));

        assertThat(read).map(TransactionTimeout::bounds).contains(false);
        assertThat(read.get().origin()).contains("transaction timeout, none");
        assertThat(manager.calls)
                .containsExactly("begin", "getTransactionRemainingTimeout", "rollback");
    }

    @Test
    void nothingBound_orABoundObjectThatFails_isNoAnswer_neverAFailure() {
        assertThat(ServerTransactionTimeout.read(bound(Map.of()))).isEmpty();
        assertThat(
                        ServerTransactionTimeout.read(
                                bound(
                                        Map.of(
                                                ServerTransactionTimeout.LIBERTY_UOW_MANAGER,
                                                new LibertyUow(-99),
                                                ServerTransactionTimeout
                                                        .WILDFLY_TRANSACTION_MANAGER,
                                                "not a transaction manager"))))
                .isEmpty();
        assertThat(
                        ServerTransactionTimeout.read(
                                name -> {
                                    throw new javax.naming.NoInitialContextException();
                                }))
                .isEmpty();
    }

    private static ServerTransactionTimeout.Lookup bound(Map<String, Object> names) {
        return name -> {
            Object found = names.get(name);
            if (found == null) {
                throw new NameNotFoundException(name);
            }
            return found;
        };
    }

    /** The shape of Liberty's {@code com.ibm.wsspi.uow.UOWAction}. */
    public interface UowAction {
        void run() throws Exception;
    }

    /** The shape of Liberty's {@code UOWSynchronizationRegistry} and {@code UOWManager}. */
    public interface UowManager {
        int UOW_TYPE_GLOBAL_TRANSACTION = 1;

        void runUnderUOW(int type, boolean join, UowAction action) throws Exception;

        int getUOWTimeout();
    }

    /** Its implementation: the timeout is known inside a transaction only. */
    private static final class LibertyUow implements UowManager {
        final List<String> calls = new ArrayList<>();
        private final int timeout;
        private boolean inTransaction;

        LibertyUow(int timeout) {
            this.timeout = timeout;
        }

        @Override
        public void runUnderUOW(int type, boolean join, UowAction action) throws Exception {
            calls.add("runUnderUOW(" + type + ", " + join + ")");
            if (timeout == -99) {
                throw new IllegalStateException("the transaction service is stopping");
            }
            inTransaction = true;
            try {
                action.run();
            } finally {
                inTransaction = false;
            }
        }

        @Override
        public int getUOWTimeout() {
            if (!inTransaction) {
                throw new IllegalStateException("no unit of work");
            }
            calls.add("getUOWTimeout");
            return timeout;
        }
    }

    /** The shape of WildFly's {@code ContextTransactionManager}. */
    public static final class WildFlyManager {
        private final int timeout;

        public WildFlyManager(int timeout) {
            this.timeout = timeout;
        }

        public int getTransactionTimeout() {
            return timeout;
        }
    }

    /** The shape of Payara's {@code TransactionManagerHelper}. */
    public static class PayaraManager {
        final List<String> calls = new ArrayList<>();
        private final int timeout;
        private boolean inTransaction;

        PayaraManager(int timeout) {
            this.timeout = timeout;
        }

        public void begin() {
            calls.add("begin");
            inTransaction = true;
        }

        public int getTransactionRemainingTimeout() {
            if (!inTransaction) {
                throw new IllegalStateException("no current transaction");
            }
            calls.add("getTransactionRemainingTimeout");
            return timeout;
        }

        public void rollback() {
            calls.add("rollback");
            inTransaction = false;
        }
    }
}
