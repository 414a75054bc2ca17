package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent;
import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyMessageExhausted;
import io.idemkit.method.Beans;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeTransactions;
import io.idemkit.testsupport.TestMessages;
import jakarta.jms.Message;
import jakarta.transaction.Status;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The message surface (C11) on a real CDI container: keys, attempts, the exhausted observers, the
 * body fingerprint and the scope of a delivery. Acknowledge is a normal return; redelivery is a
 * rollback-only transaction, or a thrown exception where there is no transaction.
 */
class MessageSurfaceTest extends MessageFixture {

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
}
