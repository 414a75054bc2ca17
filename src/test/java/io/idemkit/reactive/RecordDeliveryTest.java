package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyRecordExhausted;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Reactive Messaging surface (C17) on a real CDI container: an {@code @Idempotent @Incoming}
 * method called as a connector calls it, with Kafka records as Open Liberty's connector hands them
 * over ({@link KafkaMessage}). What a real broker and runtime add is the integration tests'.
 */
class RecordDeliveryTest {

    private final TestDeployment deployment = new TestDeployment();
    private Payments payments;

    @BeforeEach
    void reset() {
        Beans.reset();
        Payments.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private void start() {
        payments =
                deployment
                        .start(Payments.class, Beans.EventLog.class, ExhaustedLog.class)
                        .select(Payments.class)
                        .get();
    }

    private KafkaMessage deliver(KafkaMessage message) {
        payments.consume(message).toCompletableFuture().join();
        return message;
    }

    @Test
    void oneHeaderKeyOnThreeRecords_runsOnce_andEveryRecordIsAcknowledged() {
        start();

        KafkaMessage first = deliver(KafkaMessage.keyed(0, "pay-1", "10 EUR"));
        KafkaMessage resent = deliver(KafkaMessage.keyed(1, "pay-1", "10 EUR"));
        KafkaMessage again = deliver(KafkaMessage.keyed(7, "pay-1", "10 EUR"));

        assertThat(Payments.runs).hasValue(1);
        assertThat(List.of(first.acks, resent.acks, again.acks)).allMatch(a -> a.get() == 1);
        assertThat(Beans.decisions())
                .containsExactly(Decision.NEW, Decision.REPLAYED, Decision.REPLAYED);
    }

    @Test
    void withoutTheHeader_aRedeliveryOfTheSameRecordIsADuplicate_andAResendIsNot() {
        start();

        deliver(KafkaMessage.at(3, "10 EUR"));
        KafkaMessage redelivered = deliver(KafkaMessage.at(3, "10 EUR"));
        deliver(KafkaMessage.at(4, "10 EUR"));

        assertThat(Payments.runs).hasValue(2);
        assertThat(redelivered.acks).hasValue(1);
    }

    @Test
    void withKeySourceRecordKey_recordsOfOneRecordKeyRunOnce_andAnotherKeyRunsAgain() {
        deployment.set("idemkit.message.key-source", "record-key");
        start();

        deliver(KafkaMessage.withRecordKey(0, "payment-1", "10 EUR"));
        KafkaMessage resent = deliver(KafkaMessage.withRecordKey(9, "payment-1", "10 EUR"));
        deliver(KafkaMessage.withRecordKey(10, "payment-2", "10 EUR"));

        assertThat(Payments.runs).hasValue(2);
        assertThat(resent.acks).hasValue(1);
    }

    @Test
    void byDefault_theRecordKeyIsNoIdempotencyKey_twoRecordsOfOneCustomerBothRun() {
        start();

        deliver(KafkaMessage.withRecordKey(0, "customer-1", "10 EUR"));
        deliver(KafkaMessage.withRecordKey(1, "customer-1", "25 EUR"));

        assertThat(Payments.runs).hasValue(2);
    }

    @Test
    void theMethodReceivesTheConnectorsRecord_throughUnwrap() {
        start();

        deliver(KafkaMessage.keyed(5, "pay-2", "10 EUR"));

        assertThat(Payments.seenOffsets).containsExactly(5L);
    }

    @Test
    void theRecordIsAcknowledgedOnlyOnceItsCompletionIsStored() {
        start();
        KafkaMessage first = KafkaMessage.keyed(0, "pay-3", "10 EUR");
        List<Object> duplicateAtTheAck = new CopyOnWriteArrayList<>();
        // The connector's acknowledgement waits for a duplicate delivered meanwhile: the duplicate
        // is acknowledged unrun only if it finds the first completed, and would wait for the first
        // run (so for this acknowledgement) otherwise.
        first.onAck =
                () -> {
                    try {
                        duplicateAtTheAck.add(
                                CompletableFuture.supplyAsync(
                                                () -> deliver(KafkaMessage.keyed(1, "pay-3", "x")))
                                        .get(10, TimeUnit.SECONDS)
                                        .acks
                                        .get());
                    } catch (Exception e) {
                        duplicateAtTheAck.add(e);
                    }
                };

        deliver(first);

        assertThat(duplicateAtTheAck).containsExactly(1);
        assertThat(Payments.runs).hasValue(1);
    }

    @Test
    void aDuplicateOfARunningRecord_waitsForIt_andIsAcknowledgedUnrun() throws Exception {
        start();
        Payments.gate = new CountDownLatch(1);
        Payments.entered = new CountDownLatch(1);
        CompletableFuture<KafkaMessage> first =
                CompletableFuture.supplyAsync(() -> deliver(KafkaMessage.keyed(0, "pay-4", "x")));
        assertThat(Payments.entered.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<KafkaMessage> duplicate =
                CompletableFuture.supplyAsync(() -> deliver(KafkaMessage.keyed(1, "pay-4", "x")));
        Thread.sleep(500);
        assertThat(duplicate).isNotDone();

        Payments.gate.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).acks).hasValue(1);
        assertThat(duplicate.get(10, TimeUnit.SECONDS).acks).hasValue(1);
        assertThat(Payments.runs).hasValue(1);
    }

    @Test
    void aNackDuringTheCall_isRetriedInPlace_andTheRecordIsAcknowledgedOnce() {
        start();
        Payments.nacksLeft.set(1);

        KafkaMessage record = deliver(KafkaMessage.keyed(0, "pay-5", "x"));

        assertThat(Payments.runs).hasValue(2);
        assertThat(record.nacks).hasValue(0);
        assertThat(record.acks).hasValue(1);
    }

    @Test
    void aThrow_isRetriedInPlace_andTheRecordIsAcknowledgedOnce() {
        start();
        Payments.throwsLeft.set(2);

        KafkaMessage record = deliver(KafkaMessage.keyed(0, "pay-6", "x"));

        assertThat(Payments.runs).hasValue(3);
        assertThat(record.acks).hasValue(1);
        assertThat(ExhaustedLog.events).isEmpty();
    }

    @Test
    void afterMaxAttempts_theRecordIsGivenUp_acknowledged_andTheEventFiresOnce() {
        deployment.set("idemkit.message.max-attempts", "2");
        start();
        Payments.nacksLeft.set(100);

        KafkaMessage first = deliver(KafkaMessage.keyed(0, "pay-7", "x"));
        KafkaMessage redelivered = deliver(KafkaMessage.keyed(0, "pay-7", "x"));

        assertThat(Payments.runs).hasValue(2);
        assertThat(first.acks).hasValue(1);
        assertThat(first.nacks).hasValue(0);
        assertThat(redelivered.acks).hasValue(1);
        assertThat(ExhaustedLog.events).hasSize(1);
        IdempotencyRecordExhausted event = ExhaustedLog.events.get(0);
        assertThat(event.attempts()).isEqualTo(2);
        assertThat(event.lastFailure()).isEqualTo(IllegalStateException.class.getName());
        assertThat(event.message()).isSameAs(first);
        assertThat(Beans.decisions()).containsExactly(Decision.GIVEN_UP, Decision.REPLAYED);
    }

    @Test
    void withExhaustedNack_aGivenUpRecordIsNacked_withTheMethodsOwnNack() {
        deployment.set("idemkit.message.max-attempts", "2");
        deployment.set("idemkit.message.exhausted", "nack");
        start();
        Payments.nacksLeft.set(100);

        KafkaMessage record = deliver(KafkaMessage.keyed(0, "pay-10", "x"));

        assertThat(Payments.runs).hasValue(2);
        assertThat(record.nacks).hasValue(1);
        assertThat(record.acks).hasValue(0);
        assertThat(ExhaustedLog.events).hasSize(1);
    }

    @Test
    void aThrowOnTheLastAttempt_withAnObserverThatThrows_reachesTheConnectorAndReleasesTheKey() {
        deployment.set("idemkit.message.max-attempts", "1");
        start();
        Payments.throwsLeft.set(1);
        ExhaustedLog.failure = new IllegalStateException("the dead-letter topic is down");

        assertThatThrownBy(() -> payments.consume(KafkaMessage.keyed(0, "pay-11", "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("thrown");
        ExhaustedLog.failure = null;
        KafkaMessage again = deliver(KafkaMessage.keyed(0, "pay-11", "x"));

        // Released, not given up: the next delivery counts its second attempt, past one.
        assertThat(again.acks).hasValue(1);
        assertThat(Payments.runs).hasValue(1);
        assertThat(ExhaustedLog.events).hasSize(2);
    }

    @Test
    void aStageThatFailsAfterTheCall_reachesTheConnector_andReleasesTheKey() {
        start();
        Payments.failLater = true;

        KafkaMessage failed = deliver(KafkaMessage.keyed(0, "pay-12", "x"));
        Payments.failLater = false;
        KafkaMessage again = deliver(KafkaMessage.keyed(0, "pay-12", "x"));

        assertThat(failed.nacks).hasValue(1);
        assertThat(failed.acks).hasValue(0);
        assertThat(again.acks).hasValue(1);
        assertThat(Payments.runs).hasValue(2);
    }

    @Test
    void withTheBodyFingerprinted_aKeyReusedWithAnotherPayload_isAcknowledgedUnrunAndHandedOver() {
        deployment.set("idemkit.message.fingerprint", "body");
        start();

        deliver(KafkaMessage.keyed(0, "pay-8", "10 EUR"));
        KafkaMessage other = deliver(KafkaMessage.keyed(1, "pay-8", "99 EUR"));

        assertThat(Payments.runs).hasValue(1);
        assertThat(other.acks).hasValue(1);
        assertThat(ExhaustedLog.events)
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.attempts()).isZero();
                            assertThat(e.lastFailure()).startsWith("payload mismatch");
                        });
    }

    @Test
    void aMessageThatIsNoKafkaRecord_runsUnprotected() {
        start();
        AtomicInteger acks = new AtomicInteger();
        Message<String> plain =
                Message.of(
                        "x",
                        () -> {
                            acks.incrementAndGet();
                            return CompletableFuture.completedFuture(null);
                        });

        payments.consume(plain).toCompletableFuture().join();
        payments.consume(plain).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(2);
        assertThat(acks).hasValue(2);
    }

    @Test
    void aRecordDeliveredOnAVertxEventLoopThread_warnsOnceToAnnotateTheMethodBlocking()
            throws Exception {
        start();
        try (CapturedLog log = CapturedLog.of(RecordDelivery.class)) {
            Thread loop =
                    new Thread(
                            () -> {
                                deliver(KafkaMessage.keyed(0, "pay-10", "x"));
                                deliver(KafkaMessage.keyed(1, "pay-11", "x"));
                            },
                            "vert.x-eventloop-thread-3");
            loop.start();
            loop.join(10_000);
            deliver(KafkaMessage.keyed(2, "pay-12", "x"));

            assertThat(Payments.runs).hasValue(3);
            assertThat(log.warnings())
                    .singleElement()
                    .asString()
                    .contains("on a Vert.x event-loop thread (vert.x-eventloop-thread-3)")
                    .contains("@io.smallrye.reactive.messaging.annotations.Blocking");
        }
    }

    @Test
    void aMessageBuiltFromTheGuardedOne_acknowledgesThroughIt() {
        start();
        Payments.ackThroughWithPayload = true;

        KafkaMessage first = deliver(KafkaMessage.keyed(0, "pay-9", "x"));
        KafkaMessage duplicate = deliver(KafkaMessage.keyed(1, "pay-9", "x"));

        assertThat(first.acks).hasValue(1);
        assertThat(duplicate.acks).hasValue(1);
        assertThat(Payments.runs).hasValue(1);
    }

    /** An {@code @Incoming} method as an application writes it. */
    @ApplicationScoped
    public static class Payments {
        static final AtomicInteger runs = new AtomicInteger();
        static final AtomicInteger nacksLeft = new AtomicInteger();
        static final AtomicInteger throwsLeft = new AtomicInteger();
        static final List<Long> seenOffsets = new CopyOnWriteArrayList<>();
        static volatile CountDownLatch gate = new CountDownLatch(0);
        static volatile CountDownLatch entered = new CountDownLatch(0);
        static volatile boolean ackThroughWithPayload;
        static volatile boolean failLater;

        static void reset() {
            runs.set(0);
            nacksLeft.set(0);
            throwsLeft.set(0);
            seenOffsets.clear();
            gate = new CountDownLatch(0);
            entered = new CountDownLatch(0);
            ackThroughWithPayload = false;
            failLater = false;
            ExhaustedLog.failure = null;
            ExhaustedLog.events.clear();
        }

        @Idempotent
        @Incoming("payments")
        public CompletionStage<Void> consume(Message<String> message) {
            runs.incrementAndGet();
            entered.countDown();
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            try {
                seenOffsets.add(message.unwrap(ConsumerRecord.class).offset());
            } catch (IllegalArgumentException notKafka) {
                // a plain message
            }
            if (throwsLeft.getAndDecrement() > 0) {
                throw new IllegalStateException("thrown");
            }
            if (nacksLeft.getAndDecrement() > 0) {
                return message.nack(new IllegalStateException("nacked"));
            }
            if (failLater) {
                // After the call has returned: the delivery can no longer call the method again.
                return CompletableFuture.runAsync(
                                () -> {},
                                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))
                        .thenCompose(done -> message.nack(new IllegalStateException("later")));
            }
            return ackThroughWithPayload ? message.withPayload("done").ack() : message.ack();
        }
    }

    /** Records every exhausted record. */
    @ApplicationScoped
    public static class ExhaustedLog {
        static final List<IdempotencyRecordExhausted> events = new CopyOnWriteArrayList<>();
        static volatile RuntimeException failure;

        void on(@Observes IdempotencyRecordExhausted event) {
            events.add(event);
            if (failure != null) {
                throw failure;
            }
        }
    }
}
