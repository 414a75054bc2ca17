package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Keys derived from all the arguments (C7.1, the reference's §8.2): arguments that change between
 * retries are found at deployment and when called, and {@code idemkit.method.derived-key} decides
 * whether that warns, fails the deployment, or whether every derived key does.
 */
class DerivedKeyTest {

    private final TestDeployment deployment = new TestDeployment();
    private CapturedLog log;

    @BeforeEach
    void listen() {
        deployment.set("idemkit.scope-mode", "single-tenant");
        log = CapturedLog.of("io.idemkit");
    }

    @AfterEach
    void shutDown() {
        log.close();
        deployment.close();
    }

    private List<String> warned() {
        return log.warnings();
    }

    @Test
    void theScan_findsTimesUuidsAndNamesLikeThem_butNotDatesOrIgnoredOnes() throws Exception {
        assertThat(
                        DerivedKeys.volatileLooking(
                                Stamped.class.getMethod("at", String.class, Instant.class)))
                .containsExactly("parameter 1 is a Instant");
        assertThat(DerivedKeys.volatileLooking(Stamped.class.getMethod("with", Order.class)))
                .containsExactly("parameter 0 has the component requestId");
        assertThat(
                        DerivedKeys.volatileLooking(
                                Stamped.class.getMethod("book", LocalDate.class, UUID.class)))
                .isEmpty();
        assertThat(DerivedKeys.isDerived(Keyed.class.getMethod("pay", String.class, UUID.class)))
                .isFalse();
    }

    @Test
    void warnMode_deploysAndSaysWhichArgumentLooksVolatile_once() {
        deployment.start(Stamped.class);

        assertThat(warned())
                .anySatisfy(
                        w ->
                                assertThat(w)
                                        .contains(Stamped.class.getName() + ".at()")
                                        .contains("parameter 1 is a Instant"));
    }

    @Test
    void strictMode_failsTheDeploymentOnAVolatileLookingArgument() {
        deployment.set("idemkit.method.derived-key", "strict");

        assertThatThrownBy(() -> deployment.start(Stamped.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(Stamped.class.getName() + ".with()")
                .hasMessageContaining("has the component requestId")
                .hasMessageContaining("idemkit.method.derived-key=strict");
    }

    @Test
    void strictMode_deploysExplicitKeysAndCleanDerivedOnes() {
        deployment.set("idemkit.method.derived-key", "strict");

        assertThat(deployment.start(Keyed.class, Clean.class).select(Clean.class).get())
                .isNotNull();
    }

    @Test
    void refuseMode_failsEveryDerivedKey_andDeploysExplicitOnes() {
        deployment.set("idemkit.method.derived-key", "refuse");

        assertThatThrownBy(() -> deployment.start(Clean.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(Clean.class.getName() + ".quote() has no @IdempotencyKey")
                .hasMessageContaining("idemkit.method.derived-key=refuse");
        deployment.close();
        TestDeployment explicit = new TestDeployment();
        explicit.set("idemkit.scope-mode", "single-tenant");
        explicit.set("idemkit.method.derived-key", "refuse");
        try {
            assertThat(explicit.start(Keyed.class).select(Keyed.class).get()).isNotNull();
        } finally {
            explicit.close();
        }
    }

    @Test
    void aVolatileValueInAnUntypedArgument_isWarnedWhenCalled_once() {
        Clean clean = deployment.start(Clean.class).select(Clean.class).get();
        log.clear();

        clean.quote("SFO", Instant.now());
        clean.quote("SFO", Instant.now());

        assertThat(warned())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .contains(Clean.class.getName() + ".quote()")
                                        .contains("argument 1 is a Instant"));
    }

    @Test
    void aUuidPassedAsText_isWarnedWhenCalled_once_withoutTheValue() {
        Clean clean = deployment.start(Clean.class).select(Clean.class).get();
        log.clear();
        String fresh = UUID.randomUUID().toString();

        clean.quote("SFO", fresh);
        clean.quote("SFO", UUID.randomUUID().toString().toUpperCase(java.util.Locale.ROOT));

        assertThat(warned())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .contains(Clean.class.getName() + ".quote()")
                                        .contains("argument 1 is text shaped like a UUID")
                                        .doesNotContain(fresh));
    }

    @Test
    void anIsoTimestampPassedAsText_isWarnedWhenCalled() {
        Clean clean = deployment.start(Clean.class).select(Clean.class).get();
        log.clear();

        clean.quote("SFO", "2026-05-30T10:00:01.123Z");

        assertThat(warned())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .contains(
                                                "argument 1 is text shaped like an ISO-8601"
                                                        + " date-time")
                                        .doesNotContain("2026-05-30"));
    }

    @Test
    void aVolatileValueInARecordComponent_isWarnedWhenCalled() {
        Clean clean = deployment.start(Clean.class).select(Clean.class).get();
        log.clear();

        clean.quote("SFO", new Context("web", "2026-05-30 10:00"));

        assertThat(warned())
                .singleElement()
                .satisfies(
                        w ->
                                assertThat(w)
                                        .contains(
                                                "argument 1 has the component detail, text shaped"
                                                        + " like an ISO-8601 date-time"));
    }

    @Test
    void businessTextDatesAndValuesInCollections_areNotWarnedAbout() {
        Clean clean = deployment.start(Clean.class).select(Clean.class).get();
        log.clear();

        clean.quote("SFO", "JFK");
        clean.quote("SFO", "2026-05-30");
        clean.quote("SFO", "order 123e4567-e89b-12d3-a456-426614174000");
        clean.quote("SFO", List.of(UUID.randomUUID().toString()));
        clean.quote("SFO", java.util.Map.of("at", "2026-05-30T10:00:01Z"));
        clean.quote("SFO", null);

        assertThat(warned()).isEmpty();
    }

    @Test
    void theValueCheck_readsTextAsTheReference_andNeverQuotesIt() {
        assertThat(DerivedKeys.volatileValue("123E4567-E89B-12D3-A456-426614174000\n"))
                .contains("is text shaped like a UUID");
        assertThat(DerivedKeys.volatileValue("2026-05-30 10:00"))
                .contains("is text shaped like an ISO-8601 date-time");
        // Python's \d takes any decimal digit: Arabic-Indic ones too.
        assertThat(DerivedKeys.volatileValue("\u0662\u0660\u0662\u0666-05-30T10:00"))
                .contains("is text shaped like an ISO-8601 date-time");
        assertThat(DerivedKeys.volatileValue(new StringBuilder("2026-05-30T10:00:00Z")))
                .isPresent();
        assertThat(DerivedKeys.volatileValue(Instant.EPOCH)).contains("is a Instant");
        assertThat(DerivedKeys.volatileValue(new Hidden(UUID.randomUUID().toString())))
                .contains("has the component ref, text shaped like a UUID");

        assertThat(DerivedKeys.volatileValue("123e4567-e89b-12d3-a456-42661417400")).isEmpty();
        assertThat(DerivedKeys.volatileValue("x123e4567-e89b-12d3-a456-426614174000")).isEmpty();
        assertThat(DerivedKeys.volatileValue("2026-05-30")).isEmpty();
        assertThat(DerivedKeys.volatileValue("10:00 on 2026-05-30")).isEmpty();
        assertThat(DerivedKeys.volatileValue(new Context("web", List.of("2026-05-30T10:00"))))
                .isEmpty();
        assertThat(DerivedKeys.volatileValue(null)).isEmpty();
    }

    /** A record that is not public: its component is read all the same. */
    private record Hidden(String ref) {}

    /** Where a call came from, with a detail the caller fills in. */
    public record Context(String channel, Object detail) {}

    /** An order whose request id changes on every retry. */
    public record Order(String item, String requestId) {}

    /** Derived keys over arguments that change between retries. */
    @ApplicationScoped
    public static class Stamped {
        @Idempotent
        public String at(String item, Instant when) {
            return item;
        }

        @Idempotent
        public String with(Order order) {
            return order.item();
        }

        @Idempotent
        public String book(LocalDate day, @IdempotencyIgnored UUID trace) {
            return day.toString();
        }
    }

    /** A derived key whose types say nothing: only its values can. */
    @ApplicationScoped
    public static class Clean {
        @Idempotent
        public String quote(String origin, Object context) {
            return origin;
        }
    }

    /** An explicit key: nothing to check. */
    @ApplicationScoped
    public static class Keyed {
        @Idempotent
        public String pay(@IdempotencyKey String orderId, UUID attempt) {
            return orderId;
        }
    }
}
