package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyMessageExhausted;
import io.idemkit.IdempotencyScopeProvider;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.DownStore;
import io.idemkit.testsupport.FakeTransactions;
import io.idemkit.testsupport.TestMessages;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.transaction.Status;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The message surface (C11) on a real CDI container: a bean that is a {@code MessageListener} with
 * an {@code @Idempotent onMessage}, called as a message-driven bean's container calls it, with
 * messages as a broker hands them over. Acknowledge is a normal return; redelivery is a
 * rollback-only transaction, or a thrown exception where there is no transaction.
 */
public class MessageSurfaceTest {

    private final TestDeployment deployment = new TestDeployment();
    private Orders orders;

    @BeforeEach
    void reset() {
        Beans.reset();
        FakeTransactions.reset();
        Orders.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private void start(Class<?>... extra) {
        Class<?>[] classes = new Class<?>[extra.length + 3];
        classes[0] = Orders.class;
        classes[1] = Beans.EventLog.class;
        classes[2] = ExhaustedLog.class;
        System.arraycopy(extra, 0, classes, 3, extra.length);
        orders = deployment.start(classes).select(Orders.class).get();
    }

    @Test
    void oneKeyDeliveredFiveTimes_runsOnce_andEveryDeliveryIsAcknowledged() {
        start();

        for (int i = 0; i < 5; i++) {
            orders.onMessage(TestMessages.message().property("IdempotencyKey", "Q1").build());
        }

        assertThat(Orders.runs).hasValue(1);
        assertThat(Beans.decisions())
                .containsExactly(
                        Decision.NEW,
                        Decision.REPLAYED,
                        Decision.REPLAYED,
                        Decision.REPLAYED,
                        Decision.REPLAYED);
        assertThat(Beans.events).extracting(IdempotencyEvent::surface).containsOnly("message");
    }

    @Test
    void redeliveryWithTheSameMessageId_andNoKeyProperty_isADuplicate() {
        start();
        Message message = TestMessages.message().id("ID:redelivered").build();

        orders.onMessage(message);
        orders.onMessage(message);

        assertThat(Orders.runs).hasValue(1);
    }

    @Test
    void withoutTheKeyProperty_twoMessageIdsAreTwoOperations() {
        start();

        orders.onMessage(TestMessages.message().text("same body").build());
        orders.onMessage(TestMessages.message().text("same body").build());

        assertThat(Orders.runs).hasValue(2);
    }

    @Test
    void configuredKeyProperty_makesAReSendWithANewMessageIdADuplicate() {
        deployment.set("idemkit.message.key-property", "orderId");
        start();

        orders.onMessage(TestMessages.message().property("orderId", "o-1").build());
        orders.onMessage(TestMessages.message().property("orderId", "o-1").build());
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "o-1").build());

        // The default property is not read once another is configured: a third operation.
        assertThat(Orders.runs).hasValue(2);
    }

    @Test
    void perMethodKeyProperty_winsOverTheGlobalOne() {
        deployment.set("idemkit.message.key-property", "orderId");
        deployment.set(Orders.class.getName() + "/onMessage/Idempotent/keyProperty", "paymentId");
        start();

        orders.onMessage(TestMessages.message().property("paymentId", "p-1").build());
        orders.onMessage(TestMessages.message().property("paymentId", "p-1").build());

        assertThat(Orders.runs).hasValue(1);
    }

    @Test
    void aFailedRun_releasesTheKey_andTheRedeliveryRuns() {
        start();
        Message message = TestMessages.message().property("IdempotencyKey", "f-1").build();
        Orders.failuresLeft.set(1);

        assertThatThrownBy(() -> orders.onMessage(message)).hasMessage("handler failed");
        orders.onMessage(message);
        orders.onMessage(message);

        assertThat(Orders.runs).hasValue(2);
    }

    @Test
    void alwaysFailing_runsMaxAttemptsTimes_thenExhaustedFiresOnce_andTheMessageIsAcknowledged() {
        deployment.set("idemkit.message.max-attempts", "3");
        start();
        Message message = TestMessages.message().property("IdempotencyKey", "Q5").build();
        Orders.failuresLeft.set(Integer.MAX_VALUE);

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> orders.onMessage(message)).hasMessage("handler failed");
        }
        orders.onMessage(message);
        orders.onMessage(message);

        assertThat(Orders.runs).hasValue(3);
        assertThat(ExhaustedLog.events).hasSize(1);
        IdempotencyMessageExhausted exhausted = ExhaustedLog.events.get(0);
        assertThat(exhausted.attempts()).isEqualTo(3);
        assertThat(exhausted.lastFailure()).isEqualTo("java.lang.IllegalStateException");
        assertThat(exhausted.message()).isSameAs(message);
        assertThat(exhausted.operation()).isEqualTo(Orders.class.getName() + ".onMessage()");
        // The give-up is stored: the fifth delivery replays it.
        assertThat(Beans.decisions()).endsWith(Decision.GIVEN_UP, Decision.REPLAYED);
    }

    @Test
    void theDeliveryThatGivesUp_reportsGivenUp_notNew() {
        // C11.3, C4.8: the bean did not run on that delivery; a dashboard must tell it apart.
        deployment.set("idemkit.message.max-attempts", "2");
        start();
        Message message = TestMessages.message().property("IdempotencyKey", "gu").build();
        Orders.failuresLeft.set(Integer.MAX_VALUE);

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> orders.onMessage(message)).hasMessage("handler failed");
        }
        orders.onMessage(message);

        assertThat(Beans.decisions())
                .containsExactly(Decision.NEW, Decision.NEW, Decision.GIVEN_UP);
        IdempotencyEvent givenUp = Beans.events.get(2);
        assertThat(givenUp.decision().eventName()).isEqualTo("idempotency.given_up");
        assertThat(givenUp.surface()).isEqualTo("message");
        assertThat(givenUp.effectiveKey()).isEqualTo(ExhaustedLog.events.get(0).effectiveKey());
    }

    @Test
    void aGiveUpWhoseTransactionRollsBack_reportsGivenUp_andTheRedeliveryGivesUpAgain() {
        deployment.set("idemkit.message.max-attempts", "1");
        start(FakeTransactions.class);
        Message message = TestMessages.message().property("IdempotencyKey", "gu-tx").build();
        Orders.failuresLeft.set(Integer.MAX_VALUE);
        FakeTransactions.status = Status.STATUS_ACTIVE;
        assertThatThrownBy(() -> orders.onMessage(message)).hasMessage("handler failed");
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        // The observer's forward fails at commit: the give-up rolls back, and comes again.
        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);
        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        FakeTransactions.end(Status.STATUS_COMMITTED);

        assertThat(Orders.runs).hasValue(1);
        assertThat(Beans.decisions())
                .containsExactly(Decision.NEW, Decision.GIVEN_UP, Decision.GIVEN_UP);
        assertThat(ExhaustedLog.events).hasSize(2);
    }

    @Test
    void exhausted_namesTheFailuresClassOnly_andItsMessageIsLoggedAtFineOnly() {
        deployment.set("idemkit.message.max-attempts", "2");
        start();
        Message message = TestMessages.message().property("IdempotencyKey", "secret").build();
        Orders.failuresLeft.set(Integer.MAX_VALUE);
        Orders.failure = "card 4111111111111111 of alice@example.com declined";

        try (CapturedLog log = CapturedLog.withFine(MessageDelivery.class)) {
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> orders.onMessage(message));
            }
            orders.onMessage(message);

            assertThat(ExhaustedLog.events).hasSize(1);
            assertThat(ExhaustedLog.events.get(0).lastFailure())
                    .isEqualTo("java.lang.IllegalStateException");
            assertThat(log.warnings())
                    .anySatisfy(
                            w ->
                                    assertThat(w)
                                            .contains("gave up")
                                            .contains("java.lang.IllegalStateException"))
                    .noneSatisfy(w -> assertThat(w).contains("4111111111111111"));
            assertThat(log.messages(Level.INFO)).noneMatch(m -> m.contains("4111111111111111"));
            assertThat(log.texts(Level.FINE))
                    .anySatisfy(t -> assertThat(t).contains("4111111111111111"));
        }
    }

    @Test
    void attemptsAreCountedAcrossReleases_notByTheBrokersCount() {
        deployment.set("idemkit.message.max-attempts", "2");
        start();
        Orders.failuresLeft.set(Integer.MAX_VALUE);

        // After a broker restart, JMSXDeliveryCount starts over at 1: the store's count does not.
        for (int i = 0; i < 2; i++) {
            Message restarted =
                    TestMessages.message()
                            .property("IdempotencyKey", "restarted")
                            .deliveryCount(1)
                            .build();
            assertThatThrownBy(() -> orders.onMessage(restarted)).hasMessage("handler failed");
        }
        orders.onMessage(
                TestMessages.message()
                        .property("IdempotencyKey", "restarted")
                        .deliveryCount(1)
                        .build());

        assertThat(Orders.runs).hasValue(2);
        assertThat(ExhaustedLog.events).hasSize(1);
    }

    @Test
    void insideATransaction_theRecordCompletesOnlyAfterCommit_andARollbackReleases() {
        start(FakeTransactions.class);
        Message message = TestMessages.message().property("IdempotencyKey", "tx-1").build();

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        assertThat(Beans.events).as("no outcome before the transaction ends").isEmpty();
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        FakeTransactions.end(Status.STATUS_COMMITTED);

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        FakeTransactions.end(Status.STATUS_COMMITTED);

        assertThat(Orders.runs).hasValue(2);
        assertThat(Beans.decisions())
                .containsExactly(Decision.NEW, Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void aBeanThatMarksItsTransactionRollbackOnly_releasesTheKeyAtOnce() {
        start(FakeTransactions.class);
        Message message = TestMessages.message().property("IdempotencyKey", "tx-2").build();
        Orders.rollbackOnly = true;

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        assertThat(FakeTransactions.synchronizations).isEmpty();
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);
        Orders.rollbackOnly = false;
        orders.onMessage(message);

        assertThat(Orders.runs).hasValue(2);
    }

    @Test
    void duplicateOfARunningMessage_neverRuns_andAsksForRedeliveryByRollback() throws Exception {
        deployment.set("idemkit.wait-timeout", "200ms");
        start(FakeTransactions.class);
        CompletableFuture<Void> first = runningDelivery("busy");

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "busy").build());

        assertThat(FakeTransactions.status).isEqualTo(Status.STATUS_MARKED_ROLLBACK);
        assertThat(Orders.runs).hasValue(1);
        Orders.gate.countDown();
        first.get(10, TimeUnit.SECONDS);
    }

    @Test
    void duplicateOfARunningMessage_withoutATransaction_throwsForRedelivery() throws Exception {
        deployment.set("idemkit.wait-timeout", "200ms");
        start();
        CompletableFuture<Void> first = runningDelivery("busy-2");

        assertThatThrownBy(
                        () ->
                                orders.onMessage(
                                        TestMessages.message()
                                                .property("IdempotencyKey", "busy-2")
                                                .build()))
                .isInstanceOf(IdempotencyInProgressException.class);
        Orders.gate.countDown();
        first.get(10, TimeUnit.SECONDS);
        assertThat(Orders.runs).hasValue(1);
    }

    @Test
    void aRedeliveryThatOvertakesTheRollback_waitsForTheRelease_thenRunsOnce() throws Exception {
        // The transaction manager, not the bean, rolls the first delivery back (a timeout, a
        // failed commit): the broker may redeliver before the rollback's release has run.
        start(FakeTransactions.class);
        Message message = TestMessages.message().property("IdempotencyKey", "overtaken").build();
        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(message);
        FakeTransactions.status = Status.STATUS_NO_TRANSACTION;

        CompletableFuture<Void> redelivery =
                CompletableFuture.runAsync(() -> orders.onMessage(message));
        Thread.sleep(300);
        assertThat(redelivery).as("waits on its predecessor's claim").isNotDone();
        FakeTransactions.status = Status.STATUS_ACTIVE;
        FakeTransactions.end(Status.STATUS_ROLLEDBACK);

        redelivery.get(10, TimeUnit.SECONDS);
        assertThat(Orders.runs).hasValue(2);
        orders.onMessage(message);
        assertThat(Orders.runs).as("the redelivery's run was stored").hasValue(2);
    }

    @Test
    void storeDownUnderFailClosed_asksForRedelivery_andCountsNoAttempt() {
        deployment.set("idemkit.message.max-attempts", "1");
        start(DownStore.class, FakeTransactions.class);

        FakeTransactions.status = Status.STATUS_ACTIVE;
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "down").build());

        assertThat(FakeTransactions.status).isEqualTo(Status.STATUS_MARKED_ROLLBACK);
        assertThat(Orders.runs).hasValue(0);
        assertThat(ExhaustedLog.events).isEmpty();
    }

    @Test
    void storeDownWithoutATransaction_throwsTheStorageFailure() {
        start(DownStore.class);

        assertThatThrownBy(
                        () ->
                                orders.onMessage(
                                        TestMessages.message()
                                                .property("IdempotencyKey", "down")
                                                .build()))
                .isInstanceOf(IdempotencyStorageException.class);
        assertThat(Orders.runs).hasValue(0);
    }

    @Test
    void bodyFingerprint_aKeyReusedWithAnotherBody_isAcknowledgedWithoutRunning() {
        deployment.set("idemkit.message.fingerprint", "body");
        start();

        orders.onMessage(TestMessages.message().property("IdempotencyKey", "b").text("a").build());
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "b").text("a").build());
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "b").text("z").build());
        orders.onMessage(
                TestMessages.message().property("IdempotencyKey", "c").bytes("one").build());
        orders.onMessage(
                TestMessages.message().property("IdempotencyKey", "c").bytes("two").build());

        assertThat(Orders.runs).hasValue(2);
        assertThat(Beans.decisions())
                .containsExactly(
                        Decision.NEW,
                        Decision.REPLAYED,
                        Decision.PAYLOAD_MISMATCH,
                        Decision.NEW,
                        Decision.PAYLOAD_MISMATCH);
    }

    @Test
    void bodyFingerprint_aKeyReusedWithAnotherBody_reachesTheExhaustedObservers_notOnlyALog() {
        deployment.set("idemkit.message.fingerprint", "body");
        start();
        orders.onMessage(
                TestMessages.message().property("IdempotencyKey", "sq").text("first").build());
        Message real = TestMessages.message().property("IdempotencyKey", "sq").text("real").build();

        orders.onMessage(real);

        assertThat(Orders.runs).hasValue(1);
        assertThat(ExhaustedLog.events).hasSize(1);
        IdempotencyMessageExhausted refused = ExhaustedLog.events.get(0);
        assertThat(refused.message()).isSameAs(real);
        assertThat(refused.attempts()).isZero();
        assertThat(refused.lastFailure()).startsWith("payload mismatch");
        assertThat(refused.operation()).isEqualTo(Orders.class.getName() + ".onMessage()");
    }

    @Test
    void withoutBodyFingerprint_aKeyReusedWithAnotherBody_isADuplicate() {
        start();

        orders.onMessage(TestMessages.message().property("IdempotencyKey", "b").text("a").build());
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "b").text("z").build());

        assertThat(Orders.runs).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void aScopeProviderThatFailsDuringADelivery_givesTheMessageUp_toTheObservers_unrun() {
        // C11.6: the provider needs an HTTP request, which a delivery does not have.
        DeliveryScope.failure = new IllegalStateException("no HTTP request of tenant t-9");
        start(DeliveryScope.class, FakeTransactions.class);
        Message message = TestMessages.message().property("IdempotencyKey", "unscoped").build();

        try (CapturedLog log = CapturedLog.of(MessageDelivery.class)) {
            FakeTransactions.status = Status.STATUS_ACTIVE;
            orders.onMessage(message);

            assertThat(FakeTransactions.status)
                    .as("acknowledged, not redelivered")
                    .isEqualTo(Status.STATUS_ACTIVE);
            assertThat(Orders.runs).hasValue(0);
            assertThat(ExhaustedLog.events).hasSize(1);
            IdempotencyMessageExhausted refused = ExhaustedLog.events.get(0);
            assertThat(refused.message()).isSameAs(message);
            assertThat(refused.attempts()).isZero();
            assertThat(refused.effectiveKey()).isEmpty();
            assertThat(refused.operation()).isEqualTo(Orders.class.getName() + ".onMessage()");
            assertThat(refused.lastFailure())
                    .startsWith("scope unavailable")
                    .contains("java.lang.IllegalStateException")
                    .doesNotContain("t-9");
            assertThat(log.warnings())
                    .singleElement()
                    .satisfies(
                            w ->
                                    assertThat(w)
                                            .contains("without running it")
                                            .contains("scope")
                                            .doesNotContain("t-9"));
        }
    }

    @Test
    void aScopeProviderThatYieldsNothingDuringADelivery_givesTheMessageUpToo() {
        DeliveryScope.failure = null;
        DeliveryScope.scope = Optional.empty();
        start(DeliveryScope.class);

        orders.onMessage(TestMessages.message().property("IdempotencyKey", "empty").build());

        assertThat(Orders.runs).hasValue(0);
        assertThat(ExhaustedLog.events)
                .singleElement()
                .satisfies(e -> assertThat(e.lastFailure()).startsWith("scope unavailable"));
    }

    @Test
    void aScopeProviderThatAnswers_scopesTheMessage() {
        DeliveryScope.failure = null;
        DeliveryScope.scope = Optional.of("tenant-A");
        start(DeliveryScope.class);
        Message first = TestMessages.message().property("IdempotencyKey", "scoped").build();

        orders.onMessage(first);
        DeliveryScope.scope = Optional.of("tenant-B");
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "scoped").build());

        assertThat(Orders.runs).as("two tenants, two operations").hasValue(2);
        assertThat(ExhaustedLog.events).isEmpty();
    }

    /**
     * Starts a delivery of {@code key} on another thread and waits until the bean runs it; the bean
     * then holds on until {@code Orders.gate} opens.
     */
    private CompletableFuture<Void> runningDelivery(String key) throws InterruptedException {
        Orders.gate = new CountDownLatch(1);
        Orders.entered = new CountDownLatch(1);
        CompletableFuture<Void> delivery =
                CompletableFuture.runAsync(
                        () ->
                                orders.onMessage(
                                        TestMessages.message()
                                                .property("IdempotencyKey", key)
                                                .build()));
        assertThat(Orders.entered.await(10, TimeUnit.SECONDS)).isTrue();
        return delivery;
    }

    /** A message listener as a message-driven bean would be, without the EJB container. */
    @ApplicationScoped
    public static class Orders implements MessageListener {
        public static final AtomicInteger runs = new AtomicInteger();
        static final AtomicInteger failuresLeft = new AtomicInteger();
        static volatile CountDownLatch gate = new CountDownLatch(0);
        static volatile CountDownLatch entered = new CountDownLatch(0);
        static volatile boolean rollbackOnly;
        static volatile String failure = "handler failed";

        public static void reset() {
            failure = "handler failed";
            runs.set(0);
            failuresLeft.set(0);
            gate = new CountDownLatch(0);
            entered = new CountDownLatch(0);
            rollbackOnly = false;
            ExhaustedLog.events.clear();
        }

        @Idempotent
        @Override
        public void onMessage(Message message) {
            runs.incrementAndGet();
            entered.countDown();
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failuresLeft.getAndDecrement() > 0) {
                throw new IllegalStateException(failure);
            }
            if (rollbackOnly) {
                FakeTransactions.status = Status.STATUS_MARKED_ROLLBACK;
            }
        }
    }

    /** An application's scope provider, which may fail during a delivery. */
    @ApplicationScoped
    public static class DeliveryScope implements IdempotencyScopeProvider {
        static volatile RuntimeException failure;
        static volatile Optional<String> scope = Optional.of("tenant-A");

        @Override
        public Optional<String> currentScope() {
            if (failure != null) {
                throw failure;
            }
            return scope;
        }
    }

    /** Records every exhausted message. */
    @ApplicationScoped
    public static class ExhaustedLog {
        static final List<IdempotencyMessageExhausted> events = new CopyOnWriteArrayList<>();

        void on(@Observes IdempotencyMessageExhausted event) {
            events.add(event);
        }
    }
}
