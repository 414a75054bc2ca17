package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.MapJndi;
import io.idemkit.transaction.ServerTransactionTimeout;
import io.idemkit.transaction.ServerTransactionTimeoutTest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import javax.naming.Context;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the deployment refuses about an {@code @Idempotent} message listener (C11.1, C11.4): an
 * illegal key property, and a lease or wait the transaction timeout cannot hold.
 */
class MessageDeploymentTest {

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
        System.clearProperty(Context.INITIAL_CONTEXT_FACTORY);
        MapJndi.BOUND.clear();
    }

    /** A server whose transaction manager answers as WildFly's does. */
    private static void serverTimeout(int seconds) {
        System.setProperty(Context.INITIAL_CONTEXT_FACTORY, MapJndi.class.getName());
        MapJndi.BOUND.put(
                ServerTransactionTimeout.WILDFLY_TRANSACTION_MANAGER,
                new ServerTransactionTimeoutTest.WildFlyManager(seconds));
    }

    @Test
    void unsetTimeout_isReadFromTheServer_andRefusesALeaseThe120sAssumptionWouldAccept() {
        serverTimeout(60);
        deployment.set("idemkit.lease-ttl", "90s");

        assertThatThrownBy(() -> deployment.start(Listener.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "The lease of "
                                + Listener.class.getName()
                                + ".onMessage() (90s) must be shorter than the transaction"
                                + " timeout (WildFly's transaction timeout, 1m, read from the"
                                + " server)");
    }

    @Test
    void theServersTimeout_acceptsALeaseThe120sAssumptionWouldRefuse() {
        serverTimeout(300);
        deployment.set("idemkit.lease-ttl", "150s");

        assertThat(deployment.start(Listener.class).select(Listener.class).get()).isNotNull();
    }

    @Test
    void aRecordKeySource_isRefusedForAMessageDrivenBean_whoseMessagesHaveNoRecordKey() {
        serverTimeout(300);
        deployment.set(Listener.class.getName() + "/onMessage/Idempotent/keySource", "record-key");

        assertThatThrownBy(() -> deployment.start(Listener.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "The messages of "
                                + Listener.class.getName()
                                + ".onMessage() cannot be keyed by a record key"
                                + " (keySource=record-key)");
    }

    @Test
    void theGlobalRecordKeySource_isLeftToKafkaRecords_andAMessageDrivenBeanDeploys() {
        serverTimeout(300);
        deployment.set("idemkit.message.key-source", "record-key");

        assertThat(deployment.start(Listener.class).select(Listener.class).get()).isNotNull();
    }

    @Test
    void aConfiguredTimeout_winsOverTheServers() {
        serverTimeout(60);
        deployment.set("idemkit.message.transaction-timeout", "5m");
        deployment.set("idemkit.lease-ttl", "90s");

        assertThat(deployment.start(Listener.class).select(Listener.class).get()).isNotNull();
    }

    @Test
    void aServerWithoutATransactionTimeout_holdsNoLease() {
        serverTimeout(0);
        deployment.set("idemkit.lease-ttl", "1h");
        deployment.set("idemkit.wait-timeout", "10m");

        assertThat(deployment.start(Listener.class).select(Listener.class).get()).isNotNull();
    }

    @Test
    void nothingReadableAndNothingSet_assumes120s_andSaysSo() {
        deployment.set("idemkit.lease-ttl", "2m");

        try (CapturedLog log = CapturedLog.of("io.idemkit.policy.MessageChecks")) {
            assertThatThrownBy(() -> deployment.start(Listener.class))
                    .isInstanceOf(DeploymentException.class)
                    .hasMessageContaining(
                            "(2m) must be shorter than the transaction timeout (2m assumed:"
                                    + " idemkit.message.transaction-timeout is unset, and the"
                                    + " server's could not be read)");
            assertThat(log.warnings())
                    .singleElement()
                    .satisfies(
                            w ->
                                    assertThat(w)
                                            .contains("cannot read this server's JTA transaction")
                                            .contains("assumes 2m")
                                            .contains("idemkit.message.transaction-timeout"));
        }
    }

    @Test
    void anIllegalKeyPropertyOfOneBean_failsTheDeploymentNamingTheBean() {
        deployment.set(Listener.class.getName() + "/Idempotent/keyProperty", "order-id");

        assertThatThrownBy(() -> deployment.start(Listener.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid "
                                + Listener.class.getName()
                                + "/Idempotent/keyProperty=order-id: \"order-id\" is not a legal"
                                + " message property name");
    }

    @Test
    void aLeaseAsLongAsTheTransactionTimeout_failsTheDeployment() {
        // The reference's queue-lease-shorter-than-visibility, in JTA terms.
        deployment.set("idemkit.message.transaction-timeout", "10s");
        deployment.set("idemkit.wait-timeout", "2s");

        assertThatThrownBy(() -> deployment.start(LongLease.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "The lease of "
                                + LongLease.class.getName()
                                + ".onMessage() (10s) must be shorter than the transaction"
                                + " timeout"
                                + " (idemkit.message.transaction-timeout=10s)");
    }

    @Test
    void aWaitAsLongAsTheTransactionTimeout_failsTheDeployment() {
        deployment.set("idemkit.message.transaction-timeout", "10s");
        deployment.set("idemkit.lease-ttl", "5s");

        assertThatThrownBy(() -> deployment.start(Listener.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("The wait timeout of " + Listener.class.getName())
                .hasMessageContaining("(10s) must be shorter than the transaction timeout");
    }

    @Test
    void scopeSourcePrincipal_withAnIdempotentMessageListener_failsTheDeployment() {
        // C11.6: a delivery has no caller, so every message would be refused.
        deployment.set("idemkit.scope-source", "principal");

        assertThatThrownBy(() -> deployment.start(Listener.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "idemkit.scope-source=principal cannot scope the messages of "
                                + Listener.class.getName()
                                + ".onMessage()")
                .hasMessageContaining("idemkit.scope-source=auto");
    }

    @Test
    void scopeSourcePrincipal_withoutAMessageListener_deploys() {
        deployment.set("idemkit.scope-source", "principal");

        assertThat(deployment.start(NotAListener.class).select(NotAListener.class).get())
                .isNotNull();
    }

    @Test
    void theDefaults_holdTheRule_andAMethodNamedOnMessageOutsideAListenerIsNotChecked() {
        deployment.set("idemkit.message.transaction-timeout", "20s");
        deployment.set("idemkit.lease-ttl", "30s");

        // Not a MessageListener: the method surface's rules only.
        assertThat(deployment.start(NotAListener.class).select(NotAListener.class).get())
                .isNotNull();
    }

    /** A listener with the global settings. */
    @ApplicationScoped
    @Idempotent
    public static class Listener implements MessageListener {
        @Override
        public void onMessage(Message message) {}
    }

    /** A listener whose own lease is as long as the transaction timeout. */
    @ApplicationScoped
    public static class LongLease implements MessageListener {
        @Idempotent(leaseTtl = "10s")
        @Override
        public void onMessage(Message message) {}
    }

    /** A bean whose method is named like a listener's but is none. */
    @ApplicationScoped
    public static class NotAListener {
        @Idempotent
        public void onMessage(Message message) {}
    }
}
