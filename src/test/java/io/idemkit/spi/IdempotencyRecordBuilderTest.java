package io.idemkit.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The builder is the stable way to build an {@link IdempotencyRecord} (C2): it builds what the
 * canonical constructor builds, checks what it checks, and every component has a named setter that
 * {@link IdempotencyRecord#toBuilder()} fills, so that a component the record gains cannot be left
 * out of it.
 */
class IdempotencyRecordBuilderTest {

    private static final String KEY = "a".repeat(64);
    private static final String FINGERPRINT = "f".repeat(64);
    private static final ClaimToken TOKEN = new ClaimToken("token-1");
    private static final Instant CLAIMED_AT = Instant.parse("2026-12-07T08:00:00Z");
    private static final Instant LEASE_UNTIL = CLAIMED_AT.plusSeconds(30);
    private static final Instant COMPLETED_AT = CLAIMED_AT.plusSeconds(2);
    private static final Instant EXPIRES_AT = COMPLETED_AT.plusSeconds(86_400);
    private static final StoredResult RESULT =
            new StoredResult(
                    201, List.of(new StoredHeader("Location", "/charges/1")), new byte[] {1});

    private static IdempotencyRecord.Builder claimedParts() {
        return IdempotencyRecord.builder()
                .key(KEY)
                .state(RecordState.CLAIMED)
                .fingerprint(FINGERPRINT)
                .fingerprintVersion(2)
                .token(TOKEN)
                .claimedAt(CLAIMED_AT)
                .leaseUntil(LEASE_UNTIL);
    }

    private static IdempotencyRecord.Builder completedParts() {
        return claimedParts()
                .state(RecordState.COMPLETED)
                .completedAt(COMPLETED_AT)
                .expiresAt(EXPIRES_AT)
                .result(RESULT);
    }

    @Test
    void claimedParts_buildTheRecordTheCanonicalConstructorBuilds() {
        assertThat(claimedParts().build())
                .isEqualTo(
                        new IdempotencyRecord(
                                KEY,
                                RecordState.CLAIMED,
                                FINGERPRINT,
                                2,
                                TOKEN,
                                CLAIMED_AT,
                                LEASE_UNTIL,
                                null,
                                null,
                                null))
                .isEqualTo(
                        IdempotencyRecord.claimed(
                                KEY, FINGERPRINT, 2, TOKEN, CLAIMED_AT, LEASE_UNTIL));
    }

    @Test
    void completedParts_buildTheRecordTheCanonicalConstructorBuilds() {
        assertThat(completedParts().build())
                .isEqualTo(
                        new IdempotencyRecord(
                                KEY,
                                RecordState.COMPLETED,
                                FINGERPRINT,
                                2,
                                TOKEN,
                                CLAIMED_AT,
                                LEASE_UNTIL,
                                COMPLETED_AT,
                                EXPIRES_AT,
                                RESULT))
                .isEqualTo(claimedParts().build().complete(COMPLETED_AT, EXPIRES_AT, RESULT));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "key",
                "state",
                "fingerprint",
                "fingerprintVersion",
                "token",
                "claimedAt",
                "leaseUntil"
            })
    void requiredPartNotSet_isNamedByBuild(String part) {
        IdempotencyRecord.Builder builder = IdempotencyRecord.builder();
        IdempotencyRecord record = claimedParts().build();
        // Every other part set, from the record itself.
        for (RecordComponent component : IdempotencyRecord.class.getRecordComponents()) {
            if (!component.getName().equals(part)) {
                set(builder, component, record);
            }
        }

        assertThatNullPointerException().isThrownBy(builder::build).withMessage(part);
    }

    @Test
    void builder_hasNoDefaultFingerprintVersion() {
        // A store gives the version it read: a made-up default would hide a row without one.
        IdempotencyRecord.Builder builder =
                IdempotencyRecord.builder()
                        .key(KEY)
                        .state(RecordState.CLAIMED)
                        .fingerprint(FINGERPRINT)
                        .token(TOKEN)
                        .claimedAt(CLAIMED_AT)
                        .leaseUntil(LEASE_UNTIL);

        assertThatNullPointerException()
                .isThrownBy(builder::build)
                .withMessage("fingerprintVersion");
    }

    @Test
    void completionPartsThatDisagreeWithTheState_areRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> completedParts().result(null).build());
        assertThatIllegalArgumentException()
                .isThrownBy(() -> claimedParts().completedAt(COMPLETED_AT).build());
        assertThatIllegalArgumentException()
                .isThrownBy(() -> completedParts().state(RecordState.CLAIMED).build());
    }

    @Test
    void everyComponent_hasANamedSetter_andToBuilderCopiesIt() throws Exception {
        IdempotencyRecord record = completedParts().build();
        for (RecordComponent component : IdempotencyRecord.class.getRecordComponents()) {
            Method setter =
                    IdempotencyRecord.Builder.class.getMethod(
                            component.getName(), component.getType());
            assertThat(setter.getReturnType())
                    .as(component.getName())
                    .isEqualTo(IdempotencyRecord.Builder.class);
        }

        assertThat(record.toBuilder().build()).isEqualTo(record);
        assertThat(claimedParts().build().toBuilder().build()).isEqualTo(claimedParts().build());
    }

    @Test
    void toBuilder_changesOnlyWhatIsSet() {
        IdempotencyRecord record = completedParts().build();
        Instant later = LEASE_UNTIL.plusSeconds(60);

        IdempotencyRecord moved = record.toBuilder().leaseUntil(later).build();

        assertThat(moved.leaseUntil()).isEqualTo(later);
        assertThat(moved).isEqualTo(completedParts().leaseUntil(later).build());
        assertThat(record.leaseUntil()).as("the original").isEqualTo(LEASE_UNTIL);
        assertThat(record.withLeaseUntil(later)).isEqualTo(moved);
    }

    @Test
    void aBuilder_buildsSeveralRecords() {
        IdempotencyRecord.Builder builder = claimedParts();
        IdempotencyRecord first = builder.build();

        IdempotencyRecord second = builder.key("b".repeat(64)).build();

        assertThat(first.key()).isEqualTo(KEY);
        assertThat(second.key()).isEqualTo("b".repeat(64));
        assertThat(second.token()).isEqualTo(first.token());
    }

    private static void set(
            IdempotencyRecord.Builder builder, RecordComponent component, IdempotencyRecord from) {
        try {
            IdempotencyRecord.Builder.class
                    .getMethod(component.getName(), component.getType())
                    .invoke(builder, component.getAccessor().invoke(from));
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(component.getName(), e);
        }
    }
}
