package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.method.Beans;
import io.idemkit.testsupport.DownStore;
import io.idemkit.testsupport.FakeTransactions;
import io.idemkit.testsupport.TestMessages;
import jakarta.jms.Message;
import jakarta.transaction.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The message surface and the delivery's transaction (C11.2, C11.5): a record completes only after
 * the commit, a rollback releases, attempts outlive releases, a duplicate of a running message asks
 * for redelivery, and a store that is down under fail-closed asks for it too.
 */
class MessageTransactionTest extends MessageFixture {

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
}
