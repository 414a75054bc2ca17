package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyRecordExhausted;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.method.Beans;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Processors (C17.6): an {@code @Idempotent @Incoming @Outgoing} method's duplicate sends the first
 * run's outgoing payload on again, stored when the method returned, with its own acknowledgement,
 * so that a pipeline stage is effectively once end to end (the reference's
 * queue-result-bearing-replay); or nothing, with {@code processor-duplicates=drop}.
 */
class ProcessorDeliveryTest {

    private final TestDeployment deployment = new TestDeployment();
    private Quoting quoting;

    @BeforeEach
    void reset() {
        Beans.reset();
        Quoting.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private void start() {
        quoting =
                deployment
                        .start(Quoting.class, Beans.EventLog.class, Exhausted.class)
                        .select(Quoting.class)
                        .get();
    }

    @SuppressWarnings("unchecked")
    private Message<Quote> quote(KafkaMessage order) {
        return (Message<Quote>) quoting.quote(order);
    }

    @Test
    void aDuplicate_sendsTheFirstRunsPayloadOnAgain_withItsOwnAcknowledgement() {
        start();
        KafkaMessage first = KafkaMessage.keyed(0, "order-1", "tea");
        KafkaMessage duplicate = KafkaMessage.keyed(1, "order-1", "tea");

        Message<Quote> sent = quote(first);
        Message<Quote> again = quote(duplicate);

        assertThat(Quoting.runs).hasValue(1);
        assertThat(sent.getPayload()).isEqualTo(new Quote("tea", 1));
        assertThat(again.getPayload()).isEqualTo(new Quote("tea", 1));
        // Each outgoing message acknowledges its own record once written downstream.
        again.ack().toCompletableFuture().join();
        assertThat(duplicate.acks).hasValue(1);
        assertThat(first.acks).hasValue(0);
        sent.ack().toCompletableFuture().join();
        assertThat(first.acks).hasValue(1);
    }

    @Test
    void withDrop_aDuplicateSendsNothing_andItsRecordIsAcknowledged() {
        deployment.set("idemkit.message.processor-duplicates", "drop");
        start();
        quote(KafkaMessage.keyed(0, "order-2", "tea"));
        KafkaMessage duplicate = KafkaMessage.keyed(1, "order-2", "tea");

        Message<Quote> again = quote(duplicate);

        assertThat(again).isNull();
        assertThat(duplicate.acks).hasValue(1);
        assertThat(Quoting.runs).hasValue(1);
    }

    @Test
    void aProcessorThatReturnsAStage_sendsTheStoredPayloadOnInAStage() throws Exception {
        start();

        Message<?> sent =
                quoting.quoteLater(KafkaMessage.keyed(0, "order-3", "coffee"))
                        .toCompletableFuture()
                        .get();
        Message<?> again =
                quoting.quoteLater(KafkaMessage.keyed(1, "order-3", "coffee"))
                        .toCompletableFuture()
                        .get();

        assertThat(again.getPayload()).isEqualTo(sent.getPayload());
        assertThat(Quoting.runs).hasValue(1);
    }

    @Test
    void aProcessorsStageThatFailsAfterTheCall_releasesTheKey_andTheNextDeliveryRuns()
            throws Exception {
        start();
        Quoting.laterFailure = true;
        CompletionStage<?> failed = quoting.quoteLater(KafkaMessage.keyed(0, "order-6", "tea"));
        assertThat(failed.toCompletableFuture()).failsWithin(java.time.Duration.ofSeconds(10));
        Quoting.laterFailure = false;

        // Released: the next delivery runs at once, rather than waiting for a claim held forever.
        Message<?> sent =
                CompletableFuture.supplyAsync(
                                () ->
                                        quoting.quoteLater(KafkaMessage.keyed(0, "order-6", "tea"))
                                                .toCompletableFuture()
                                                .join())
                        .get(20, java.util.concurrent.TimeUnit.SECONDS);

        assertThat(sent.getPayload()).isEqualTo(new Quote("tea", 2));
        assertThat(Quoting.runs).hasValue(2);
    }

    @Test
    void aRunThatSendsNothing_makesItsDuplicatesSendNothing() {
        start();
        Quoting.skip = true;
        quote(KafkaMessage.keyed(0, "order-4", "tea"));
        Quoting.skip = false;
        KafkaMessage duplicate = KafkaMessage.keyed(1, "order-4", "tea");

        assertThat(quote(duplicate)).isNull();
        assertThat(duplicate.acks).hasValue(1);
        assertThat(Quoting.runs).hasValue(1);
    }

    @Test
    void aProcessorThatKeepsFailing_isGivenUp_sendsNothing_andItsRecordIsAcknowledged() {
        deployment.set("idemkit.message.max-attempts", "2");
        start();
        Quoting.failing = true;
        KafkaMessage order = KafkaMessage.keyed(0, "order-5", "tea");

        Message<Quote> sent = quote(order);

        assertThat(sent).isNull();
        assertThat(order.acks).hasValue(1);
        assertThat(Quoting.runs).hasValue(2);
        assertThat(Exhausted.events).hasSize(1);
        // Given up, so a duplicate sends nothing either.
        Quoting.failing = false;
        assertThat(quote(KafkaMessage.keyed(1, "order-5", "tea"))).isNull();
        assertThat(Quoting.runs).hasValue(2);
    }

    /** A quote for an order's item. */
    public record Quote(String item, int price) {}

    /** A pipeline stage: orders in, quotes out, each quote at a new price. */
    @ApplicationScoped
    public static class Quoting {
        static final AtomicInteger runs = new AtomicInteger();
        static volatile boolean skip;
        static volatile boolean failing;
        static volatile boolean laterFailure;

        static void reset() {
            runs.set(0);
            skip = false;
            failing = false;
            laterFailure = false;
            Exhausted.events.clear();
        }

        @Idempotent
        @Incoming("orders")
        @Outgoing("quotes")
        public Message<Quote> quote(Message<String> order) {
            int price = runs.incrementAndGet();
            if (failing) {
                throw new IllegalStateException("no price list");
            }
            if (skip) {
                order.ack();
                return null;
            }
            return order.withPayload(new Quote(order.getPayload(), price));
        }

        @Idempotent
        @Incoming("later-orders")
        @Outgoing("later-quotes")
        public CompletionStage<Message<Quote>> quoteLater(Message<String> order) {
            int price = runs.incrementAndGet();
            boolean fail = laterFailure;
            return CompletableFuture.supplyAsync(
                    () -> {
                        if (fail) {
                            sleep(); // so that it fails after the call returned
                            throw new IllegalStateException("the price list went away");
                        }
                        return order.withPayload(new Quote(order.getPayload(), price));
                    });
        }

        private static void sleep() {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Records every exhausted record. */
    @ApplicationScoped
    public static class Exhausted {
        static final List<IdempotencyRecordExhausted> events = new CopyOnWriteArrayList<>();

        void on(@Observes IdempotencyRecordExhausted event) {
            events.add(event);
        }
    }
}
