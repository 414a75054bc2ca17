package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The redactor hook in the engine (C4.10): the stored copy is the redactor's, the caller keeps the
 * original, a replay gets the redacted copy; a redactor that fails stores nothing, releases the
 * claim, emits {@code redaction_failed} and logs one warning without the data.
 */
class IdempotencyEngineRedactorTest extends IdempotencyEngineFixture {

    static final String CARD = "4111111111111111";

    /** Masks the card number in the body and drops the header that echoes it. */
    static final IdempotencyRedactor MASK_CARD =
            result ->
                    new StoredResult(
                            result.status(),
                            result.headers().stream()
                                    .filter(h -> !h.name().equals("X-Card"))
                                    .toList(),
                            new String(result.body(), StandardCharsets.UTF_8)
                                    .replace(CARD, "************1111")
                                    .getBytes(StandardCharsets.UTF_8));

    static StoredResult charged() {
        return new StoredResult(
                201,
                List.of(new StoredHeader("Location", "/r/1"), new StoredHeader("X-Card", CARD)),
                ("{\"card\":\"" + CARD + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    static OperationPolicy redactedBy(IdempotencyRedactor redactor) {
        return POLICY.withRedactor(redactor);
    }

    @Test
    void redactor_rewritesBodyAndHeadersOfTheStoredCopy_replayGetsTheCopy() {
        StoredResult original = charged();

        Execution first = proceed(op("fp", redactedBy(MASK_CARD)));
        assertThat(first.finish(original)).isEqualTo(FinishOutcome.STORED);

        // What the caller delivers is untouched.
        assertThat(original).isEqualTo(charged());
        StoredResult stored = store.find("e".repeat(64)).orElseThrow().result();
        assertThat(new String(stored.body(), StandardCharsets.UTF_8))
                .isEqualTo("{\"card\":\"************1111\"}")
                .doesNotContain(CARD);
        assertThat(stored.headers()).containsExactly(new StoredHeader("Location", "/r/1"));
        assertThat(stored.status()).isEqualTo(201);

        Admission replay = engine.admit(op("fp", redactedBy(MASK_CARD)));
        assertThat(((Admission.Replay) replay).result()).isEqualTo(stored);
        assertThat(decisions()).containsExactly(Decision.NEW, Decision.REPLAYED);
    }

    @Test
    void redactor_mayRewriteTheStatus() {
        IdempotencyRedactor accepted =
                result -> new StoredResult(202, result.headers(), result.body());

        proceed(op("fp", redactedBy(accepted))).finish(charged());

        assertThat(store.find("e".repeat(64)).orElseThrow().result().status()).isEqualTo(202);
    }

    @Test
    void redactor_seesOnlyCacheableResults_aReleasedOutcomeIsNeverRedacted() {
        List<StoredResult> seen = new java.util.ArrayList<>();
        IdempotencyRedactor spy =
                result -> {
                    seen.add(result);
                    return result;
                };
        StoredResult failed = new StoredResult(500, List.of(), new byte[0]);

        assertThat(proceed(op("fp", redactedBy(spy))).finish(failed))
                .isEqualTo(FinishOutcome.RELEASED);

        assertThat(seen).isEmpty();
    }

    @Test
    void throwingRedactor_storesNothing_releases_emitsRedactionFailed_warnsWithoutTheData() {
        IdempotencyRedactor broken =
                result -> {
                    throw new IllegalStateException("cannot parse " + CARD);
                };
        StoredResult original = charged();

        try (CapturedLog log = CapturedLog.of(Execution.class)) {
            Execution first = proceed(op("fp", redactedBy(broken)));
            assertThat(first.finish(original)).isEqualTo(FinishOutcome.REDACTION_FAILED);

            assertThat(log.warnings()).hasSize(1);
            assertThat(log.warnings().get(0))
                    .contains("java.lang.IllegalStateException")
                    .doesNotContain(CARD)
                    .doesNotContain("cannot parse")
                    .doesNotContain("/r/1");
        }
        // The caller still has its result; the store has nothing and the key is free.
        assertThat(original).isEqualTo(charged());
        assertThat(store.find("e".repeat(64))).isEmpty();
        assertThat(decisions()).containsExactly(Decision.REDACTION_FAILED);
        Execution retry = proceed(op("fp", redactedBy(MASK_CARD)));
        assertThat(retry.finish(charged())).isEqualTo(FinishOutcome.STORED);
        assertThat(store.find("e".repeat(64)).orElseThrow().state())
                .isEqualTo(RecordState.COMPLETED);
    }

    @Test
    void redactorReturningNull_isAFailure_storesNothing() {
        Execution first = proceed(op("fp", redactedBy(result -> null)));

        assertThat(first.finish(charged())).isEqualTo(FinishOutcome.REDACTION_FAILED);

        assertThat(store.find("e".repeat(64))).isEmpty();
        assertThat(decisions()).containsExactly(Decision.REDACTION_FAILED);
    }

    @Test
    void redactorMissingAClass_isAFailureLikeAnException_theCallerIsNotHurt() {
        Execution first =
                proceed(
                        op(
                                "fp",
                                redactedBy(
                                        result -> {
                                            throw new NoClassDefFoundError("com/example/Json");
                                        })));

        assertThat(first.finish(charged())).isEqualTo(FinishOutcome.REDACTION_FAILED);
        assertThat(store.find("e".repeat(64))).isEmpty();
    }

    @Test
    void redactorHittingAVirtualMachineError_releasesAndStoresNothing_thenRethrows() {
        Execution first =
                proceed(
                        op(
                                "fp",
                                redactedBy(
                                        result -> {
                                            throw new OutOfMemoryError("simulated");
                                        })));

        assertThatThrownBy(() -> first.finish(charged())).isInstanceOf(OutOfMemoryError.class);
        assertThat(store.find("e".repeat(64))).isEmpty();
        assertThat(decisions()).containsExactly(Decision.REDACTION_FAILED);
        proceed(op("fp")); // released: the key can be claimed at once
    }

    @Test
    void execute_callerGetsTheOriginalValue_replayGetsTheRedactedOne() throws Exception {
        OperationPolicy policy = redactedBy(MASK_CARD);
        ResultCodec<String> codec = Codecs.TEXT;

        String first = engine.execute(op("fp", policy), () -> "card " + CARD, codec, false);
        String replayed = engine.execute(op("fp", policy), () -> "ran again", codec, false);

        assertThat(first).isEqualTo("card " + CARD);
        assertThat(replayed).isEqualTo("card ************1111");
    }

    @Test
    void execute_throwingRedactor_callerStillGetsItsValue_retryRunsAgain() throws Exception {
        OperationPolicy policy =
                redactedBy(
                        result -> {
                            throw new IllegalArgumentException(CARD);
                        });
        ResultCodec<String> codec = Codecs.TEXT;

        assertThat(engine.execute(op("fp", policy), () -> "one", codec, false)).isEqualTo("one");
        assertThat(engine.execute(op("fp", policy), () -> "two", codec, false)).isEqualTo("two");
        assertThat(decisions())
                .containsExactly(Decision.REDACTION_FAILED, Decision.REDACTION_FAILED);
    }
}
