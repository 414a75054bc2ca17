package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.message.MessageSurfaceTest;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testsupport.ForwardingStore;
import io.idemkit.testsupport.TestMessages;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.inject.Qualifier;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The redactor hook on the method surface, on Weld (C4.10): the global redactor bean rewrites the
 * stored JSON, the caller gets the original value and a replay the redacted one; a method names
 * another redactor with {@code @Idempotent(redactor)} or its per-method key; a redactor that throws
 * stores nothing; the deployment refuses a named redactor that is not a bean, and several global
 * ones.
 */
class MethodRedactorTest {

    static final String CARD = "4111111111111111";
    static final String MASKED = "************1111";

    private final TestDeployment deployment = new TestDeployment();
    private WeldContainer weld;

    @BeforeEach
    void quiet() {
        Beans.reset();
        deployment.set("idemkit.scope-mode", "single-tenant");
        deployment.set("idemkit.store", "memory");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void globalRedactor_callerGetsTheOriginal_replayGetsTheRedactedCopy_storeNeverSeesTheCard() {
        Payments payments = start(MaskCard.class);

        Receipt first = payments.charge("k1", CARD);
        Receipt replayed = payments.charge("k1", CARD);

        assertThat(first).isEqualTo(new Receipt(CARD, 1));
        assertThat(replayed).isEqualTo(new Receipt(MASKED, 1));
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
        assertThat(storedBody(weld)).contains(MASKED).doesNotContain(CARD);
    }

    @Test
    void globalRedactor_noWriteTheStoreReceives_carriesTheCard() {
        RecordingStore.writes.clear();
        Payments payments = start(MaskCard.class, RecordingStore.class);

        payments.charge("k1", CARD);
        payments.charge("k1", CARD);
        payments.charge("k2", CARD);

        assertThat(RecordingStore.writes)
                .as("every result the store was asked to keep")
                .hasSize(2)
                .allSatisfy(body -> assertThat(body).contains(MASKED).doesNotContain(CARD));
    }

    @Test
    void annotationMember_namesAnotherRedactorForOneMethod() {
        Payments payments = start(MaskCard.class);

        payments.refund("k1", CARD);

        assertThat(payments.refund("k1", CARD)).isEqualTo(new Receipt(null, 1));
        assertThat(storedBody(weld)).doesNotContain(CARD).doesNotContain(MASKED);
    }

    @Test
    void perMethodKey_namesTheRedactor_overTheAnnotationAndTheGlobalOne() {
        deployment.set(
                Payments.class.getName() + "/refund/Idempotent/redactor", MaskCard.class.getName());
        Payments payments = start(MaskCard.class);

        payments.refund("k1", CARD);

        assertThat(payments.refund("k1", CARD)).isEqualTo(new Receipt(MASKED, 1));
    }

    @Test
    void withoutARedactorBean_theResultIsStoredAsItIs() {
        Payments payments = start();

        payments.charge("k1", CARD);

        assertThat(payments.charge("k1", CARD)).isEqualTo(new Receipt(CARD, 1));
    }

    @Test
    void throwingRedactor_storesNothing_callerGetsItsValue_retryRunsAgain() {
        Payments payments = start(MaskCard.class);

        assertThat(payments.void_("k1", CARD)).isEqualTo(new Receipt(CARD, 1));
        assertThat(payments.void_("k1", CARD)).isEqualTo(new Receipt(CARD, 2));

        assertThat(Beans.decisions())
                .containsExactly(Decision.REDACTION_FAILED, Decision.REDACTION_FAILED);
        assertThat(store(weld).find(Beans.events.get(0).effectiveKey())).isEmpty();
    }

    @Test
    void messageDrivenBean_isNeverRedacted_soAFailingGlobalRedactorCannotBlockItsDelivery() {
        MessageSurfaceTest.Orders.reset();
        WeldContainer weld =
                deployment.start(
                        MessageSurfaceTest.Orders.class, RefusesAll.class, Beans.EventLog.class);
        MessageSurfaceTest.Orders orders = weld.select(MessageSurfaceTest.Orders.class).get();

        orders.onMessage(TestMessages.message().property("IdempotencyKey", "Q1").build());
        orders.onMessage(TestMessages.message().property("IdempotencyKey", "Q1").build());

        assertThat(MessageSurfaceTest.Orders.runs).hasValue(1);
        assertThat(Beans.decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void namedRedactorThatIsNoBean_failsTheDeploymentNamingMethodAndClass() {
        deployment.set(
                Payments.class.getName() + "/charge/Idempotent/redactor", "com.example.Missing");

        assertThatThrownBy(() -> deployment.start(Payments.class, DropCard.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid @Idempotent(redactor=com.example.Missing) on "
                                + Payments.class.getName()
                                + ".charge()")
                .hasMessageContaining("no class com.example.Missing is visible")
                // void_ names Refuses, which this deployment lacks as a bean: reported too.
                .hasMessageContaining(
                        "Invalid @Idempotent(redactor="
                                + Refuses.class.getName()
                                + ") on "
                                + Payments.class.getName()
                                + ".void_()")
                .hasMessageContaining(
                        Refuses.class.getName() + " is not a bean of the application");
    }

    @Test
    void namedClassThatIsNoRedactor_failsTheDeployment() {
        deployment.set(
                Payments.class.getName() + "/charge/Idempotent/redactor", Receipt.class.getName());

        assertThatThrownBy(
                        () ->
                                deployment.start(
                                        Payments.class,
                                        DropCard.class,
                                        Refuses.class,
                                        MaskCard.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("does not implement io.idemkit.spi.IdempotencyRedactor");
    }

    @Test
    void severalGlobalRedactors_failTheDeploymentNamingThem() {
        assertThatThrownBy(() -> deployment.start(MaskCard.class, AlsoGlobal.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("More than one IdempotencyRedactor bean")
                .hasMessageContaining(MaskCard.class.getName())
                .hasMessageContaining(AlsoGlobal.class.getName());
    }

    @Test
    void malformedRedactorKey_failsTheDeployment() {
        deployment.set(Payments.class.getName() + "/charge/Idempotent/redactor", "not a class");

        assertThatThrownBy(() -> deployment.start(Payments.class, MaskCard.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid "
                                + Payments.class.getName()
                                + "/charge/Idempotent/redactor=not a class: must be the fully"
                                + " qualified name");
    }

    /** The payments, the redactors their annotations name, the event log, and {@code extra}. */
    private Payments start(Class<?>... extra) {
        List<Class<?>> classes =
                new ArrayList<>(
                        List.of(
                                Payments.class,
                                DropCard.class,
                                Refuses.class,
                                Beans.EventLog.class));
        classes.addAll(List.of(extra));
        weld = deployment.start(classes.toArray(Class<?>[]::new));
        return weld.select(Payments.class).get();
    }

    private static IdempotencyStore store(WeldContainer weld) {
        return weld.select(IdempotencyStore.class).get();
    }

    /** The record of the first call, found by the effective key its event carries. */
    private static String storedBody(WeldContainer weld) {
        String key = Beans.events.get(0).effectiveKey();
        StoredResult stored = store(weld).find(key).orElseThrow().result();
        return new String(stored.body(), StandardCharsets.UTF_8);
    }

    /** The memory store, noting the body of every result it is asked to keep, by any path. */
    @Alternative
    @Priority(100)
    @ApplicationScoped
    public static class RecordingStore extends ForwardingStore {
        static final List<String> writes = new CopyOnWriteArrayList<>();

        public RecordingStore() {
            super(new InMemoryIdempotencyStore(Clock.systemUTC(), 10));
        }

        @Override
        public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
            writes.add(new String(result.body(), StandardCharsets.UTF_8));
            return super.complete(key, token, result, ttl);
        }

        @Override
        public boolean completeInTransaction(
                String key, ClaimToken token, StoredResult result, Duration ttl) {
            writes.add(new String(result.body(), StandardCharsets.UTF_8));
            return super.completeInTransaction(key, token, result, ttl);
        }
    }

    /** A value with a card number. */
    public record Receipt(String card, int run) {}

    /** Replaces the card number in the stored JSON: the application's global redactor. */
    @ApplicationScoped
    public static class MaskCard implements IdempotencyRedactor {
        @Override
        public StoredResult redact(StoredResult result) {
            String json = new String(result.body(), StandardCharsets.UTF_8).replace(CARD, MASKED);
            return new StoredResult(
                    result.status(), result.headers(), json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Removes the card altogether; qualified, so it is no candidate for the global one. */
    @ApplicationScoped
    @PerMethod
    public static class DropCard implements IdempotencyRedactor {
        @Override
        public StoredResult redact(StoredResult result) {
            String json =
                    new String(result.body(), StandardCharsets.UTF_8)
                            .replace("\"card\":\"" + CARD + "\",", "");
            return new StoredResult(
                    result.status(), result.headers(), json.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Fails on every result, with the data in its message. */
    @ApplicationScoped
    @PerMethod
    public static class Refuses implements IdempotencyRedactor {
        @Override
        public StoredResult redact(StoredResult result) {
            throw new IllegalStateException(new String(result.body(), StandardCharsets.UTF_8));
        }
    }

    /** The application's global redactor, failing on every result. */
    @ApplicationScoped
    public static class RefusesAll extends Refuses {}

    /** A second unqualified redactor. */
    @ApplicationScoped
    public static class AlsoGlobal extends MaskCard {}

    /** Keeps a redactor out of the global choice. */
    @Qualifier
    @Retention(RetentionPolicy.RUNTIME)
    public @interface PerMethod {}

    /** Card payments, each method keyed by its first argument. */
    @ApplicationScoped
    public static class Payments {
        private int runs;

        @Idempotent
        public Receipt charge(@IdempotencyKey String key, String card) {
            return new Receipt(card, ++runs);
        }

        @Idempotent(redactor = DropCard.class)
        public Receipt refund(@IdempotencyKey String key, String card) {
            return new Receipt(card, ++runs);
        }

        @Idempotent(redactor = Refuses.class)
        public Receipt void_(@IdempotencyKey String key, String card) {
            return new Receipt(card, ++runs);
        }
    }
}
