package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.spi.RecordKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where an {@code @Incoming} method's key comes from besides the key property (C17.1): the bean its
 * {@code keyExtractor} names, asked first, with the header and the record's coordinates as its
 * fallback; and the Kafka header its {@code keyHeader} names, any header name; on a real CDI
 * container, with the records Open Liberty's connector hands over ({@link KafkaMessage}).
 */
class RecordKeyExtractorTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void reset() {
        Payments.runs.set(0);
        PaymentKey.seen.clear();
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private Payments start() {
        return deployment.start(Payments.class, PaymentKey.class).select(Payments.class).get();
    }

    @Test
    void theExtractorsKey_makesTwoRecordsOfOnePaymentOneRun_withoutAnyHeader() {
        Payments payments = start();

        payments.byPayload(KafkaMessage.at(0, "pay-1:10 EUR")).toCompletableFuture().join();
        KafkaMessage resent = KafkaMessage.at(1, "pay-1:10 EUR");
        payments.byPayload(resent).toCompletableFuture().join();
        payments.byPayload(KafkaMessage.at(2, "pay-2:10 EUR")).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(2);
        assertThat(resent.acks).hasValue(1);
        assertThat(PaymentKey.seen).containsExactly("orders", "orders", "orders");
    }

    @Test
    void anExtractorThatGivesNoKey_leavesTheRecordToItsHeader() {
        Payments payments = start();

        payments.byPayload(KafkaMessage.keyed(0, "h-1", "no id")).toCompletableFuture().join();
        payments.byPayload(KafkaMessage.keyed(5, "h-1", "no id")).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(1);
    }

    @Test
    void anExtractorThatThrows_leavesTheRecordToItsCoordinates_soItRunsAndARedeliveryDoesNot() {
        Payments payments = start();

        payments.byPayload(KafkaMessage.at(3, "boom")).toCompletableFuture().join();
        KafkaMessage redelivered = KafkaMessage.at(3, "boom");
        payments.byPayload(redelivered).toCompletableFuture().join();
        payments.byPayload(KafkaMessage.at(4, "boom")).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(2);
        assertThat(redelivered.acks).hasValue(1);
    }

    @Test
    void anExtractor_protectsTheMessagesOfAnotherConnectorToo() {
        Payments payments = start();
        AtomicInteger acks = new AtomicInteger();
        Message<String> plain =
                Message.of(
                        "pay-3:1 EUR",
                        () -> {
                            acks.incrementAndGet();
                            return CompletableFuture.completedFuture(null);
                        });

        payments.byPayload(plain).toCompletableFuture().join();
        payments.byPayload(plain).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(1);
        assertThat(acks).hasValue(2);
        assertThat(PaymentKey.seen).containsExactly("no topic", "no topic");
    }

    @Test
    void keyHeader_namesAKafkaHeaderThatIsNoJavaIdentifier() {
        Payments payments = start();

        payments.byHeader(KafkaMessage.withHeader(0, "idempotency-key", "k-1", "x"))
                .toCompletableFuture()
                .join();
        payments.byHeader(KafkaMessage.withHeader(1, "idempotency-key", "k-1", "x"))
                .toCompletableFuture()
                .join();
        // The key property's header is not this method's.
        payments.byHeader(KafkaMessage.keyed(2, "k-1", "x")).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(2);
    }

    @Test
    void aPerMethodKey_namesTheExtractor() {
        deployment.set(
                Payments.class.getName() + "/byHeader/Idempotent/keyExtractor",
                PaymentKey.class.getName());
        Payments payments = start();

        payments.byHeader(KafkaMessage.at(0, "pay-4:x")).toCompletableFuture().join();
        payments.byHeader(KafkaMessage.at(1, "pay-4:x")).toCompletableFuture().join();

        assertThat(Payments.runs).hasValue(1);
    }

    @Test
    void anExtractorThatIsNoRecordKeyExtractor_isRefusedAsADefinitionError() {
        deployment.set(
                Payments.class.getName() + "/byHeader/Idempotent/keyExtractor",
                Payments.class.getName());

        assertThatThrownBy(this::start)
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "Invalid key source of " + Payments.class.getName() + ".byHeader()")
                .hasMessageContaining(
                        Payments.class.getName()
                                + " does not implement io.idemkit.spi.RecordKeyExtractor");
    }

    @Test
    void anExtractorThatIsNoBean_isRefusedAsADefinitionError() {
        assertThatThrownBy(() -> deployment.start(Payments.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        PaymentKey.class.getName() + " is not a bean of the application");
    }

    @Test
    void aKeyHeaderAndAKeyExtractorOnOneLevel_areRefused() {
        deployment.set(
                Payments.class.getName() + "/byHeader/Idempotent/keyExtractor",
                PaymentKey.class.getName());
        deployment.set(Payments.class.getName() + "/byHeader/Idempotent/keyHeader", "other");

        assertThatThrownBy(this::start)
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("keyHeader and keyExtractor are both set");
    }

    /** Takes the payment id before the first {@code :} of the payload. */
    @ApplicationScoped
    public static class PaymentKey implements RecordKeyExtractor {
        static final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public Optional<String> keyOf(Record record) {
            seen.add(record.topic().orElse("no topic"));
            String payload = (String) record.payload();
            if (payload.equals("boom")) {
                throw new IllegalStateException("unreadable");
            }
            int colon = payload.indexOf(':');
            return colon < 0 ? Optional.empty() : Optional.of(payload.substring(0, colon));
        }
    }

    /** {@code @Incoming} methods keyed by an extractor and by a header of their own. */
    @ApplicationScoped
    public static class Payments {
        static final AtomicInteger runs = new AtomicInteger();

        @Idempotent(keyExtractor = PaymentKey.class)
        @Incoming("by-payload")
        public CompletionStage<Void> byPayload(Message<String> message) {
            runs.incrementAndGet();
            return message.ack();
        }

        @Idempotent(keyHeader = "idempotency-key")
        @Incoming("by-header")
        public CompletionStage<Void> byHeader(Message<String> message) {
            runs.incrementAndGet();
            return message.ack();
        }
    }
}
