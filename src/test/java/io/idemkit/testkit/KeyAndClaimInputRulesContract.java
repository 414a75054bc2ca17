package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The input rules of {@link IdempotencyStore}'s Javadoc ("Input rules", also the table in {@code
 * docs/writing-a-store.md}) for keys, fingerprints, fingerprint versions and the TTL range: a null
 * key on every keyed method, each kind of invalid key on every method, the longest key and one of
 * every printable ASCII character, bad fingerprints and versions, a version this library does not
 * compute (written and read as it is, C3), and leases and retentions at both ends of the range.
 * Each refusal throws the documented exception and writes nothing (C3: every operation is atomic).
 */
abstract class KeyAndClaimInputRulesContract extends AwaitAndRecordsContract {

    // --- input rules (IdempotencyStore's Javadoc, "Input rules") -----------------------------

    /**
     * Keys that break the key rule, each built from {@code base} so that a store that mangled one
     * into a legal key would write under {@code base}, where the tests look.
     */
    private static Map<String, String> invalidKeysFrom(String base) {
        Map<String, String> keys = new java.util.LinkedHashMap<>();
        keys.put("empty", "");
        keys.put("one character too long", base + "a".repeat(MAX_KEY - base.length() + 1));
        keys.put("a megabyte long", base.repeat(16_384));
        keys.put("with a space", base + " ");
        keys.put("with a tab", base + "\t");
        keys.put("with NUL", base + "\u0000");
        keys.put("with DEL", base + "\u007f");
        keys.put("with a non-ASCII letter", base + "\u00e9");
        keys.put("with an emoji", base + "\ud83d\ude00");
        keys.put("with a lone surrogate", base + "\ud800");
        return keys;
    }

    /** Invalid leases and retentions, by the rule each breaks. */
    static Map<String, Duration> invalidTtls() {
        Map<String, Duration> ttls = new java.util.LinkedHashMap<>();
        ttls.put("zero", Duration.ZERO);
        ttls.put("negative", Duration.ofSeconds(-30));
        ttls.put("the most negative duration", Duration.ofSeconds(Long.MIN_VALUE));
        ttls.put("below a millisecond", Duration.ofNanos(999_999));
        ttls.put("past 100 years", io.idemkit.spi.StoreArguments.MAX_TTL.plusNanos(1));
        ttls.put("the longest duration", Duration.ofSeconds(Long.MAX_VALUE, 999_999_999));
        return ttls;
    }

    @Test
    void everyKeyedMethod_nullKey_throwsNullPointerException() {
        ClaimToken token = ClaimToken.random();
        assertThatNullPointerException().isThrownBy(() -> store().claim(null, FP, V1, longLease()));
        assertThatNullPointerException()
                .isThrownBy(() -> store().complete(null, token, result("x"), longLease()));
        assertThatNullPointerException().isThrownBy(() -> store().release(null, token));
        assertThatNullPointerException().isThrownBy(() -> store().renew(null, token, longLease()));
        assertThatNullPointerException()
                .isThrownBy(() -> store().awaitCompletion(null, Duration.ZERO));
        assertThatNullPointerException().isThrownBy(() -> store().find(null));
        assertThatNullPointerException().isThrownBy(() -> store().delete(null));
    }

    @Test
    void claim_invalidKey_throwsIllegalArgumentExceptionAndWritesNothing() {
        String base = newKey();
        invalidKeysFrom(base)
                .forEach(
                        (rule, key) ->
                                assertThatIllegalArgumentException()
                                        .as("a key %s", rule)
                                        .isThrownBy(() -> store().claim(key, FP, V1, longLease())));

        assertThat(store().find(base)).isEmpty();
        ClaimResult claim = store().claim(base, FP, V1, longLease());
        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
    }

    @Test
    void fencedFindAndDelete_invalidKey_throwIllegalArgumentExceptionAndChangeNothing()
            throws Exception {
        String base = newKey();
        ClaimToken token = claimNew(base);
        IdempotencyRecord before = store().find(base).orElseThrow();
        for (Map.Entry<String, String> bad : invalidKeysFrom(base).entrySet()) {
            String key = bad.getValue();
            String rule = "a key " + bad.getKey();
            assertThatIllegalArgumentException()
                    .as("complete, " + rule)
                    .isThrownBy(() -> store().complete(key, token, result("x"), longLease()));
            assertThatIllegalArgumentException()
                    .as("renew, " + rule)
                    .isThrownBy(() -> store().renew(key, token, longLease()));
            assertThatIllegalArgumentException()
                    .as("release, " + rule)
                    .isThrownBy(() -> store().release(key, token));
            assertThatIllegalArgumentException()
                    .as("delete, " + rule)
                    .isThrownBy(() -> store().delete(key));
            assertThatIllegalArgumentException()
                    .as("find, " + rule)
                    .isThrownBy(() -> store().find(key));
            assertThatIllegalArgumentException()
                    .as("awaitCompletion, " + rule)
                    .isThrownBy(() -> store().awaitCompletion(key, Duration.ZERO));
        }

        assertThat(store().find(base)).contains(before);
    }

    @Test
    void claim_keyOfEveryPrintableAsciiCharacterAndOfTheLongestLength_isAccepted() {
        StringBuilder printable = new StringBuilder(newKey().substring(0, 16));
        for (char c = 0x21; c <= 0x7E; c++) {
            printable.append(c);
        }
        String longest = newKey() + "z".repeat(MAX_KEY - 64);
        for (String key : List.of(printable.toString(), longest)) {
            ClaimToken token = claimNew(key);
            assertThat(store().complete(key, token, result("ok"), longLease())).isTrue();
            assertThat(store().find(key)).get().extracting(IdempotencyRecord::key).isEqualTo(key);
            assertThat(store().delete(key)).isTrue();
        }
    }

    @Test
    void claim_nullFingerprint_throwsNullPointerExceptionAndWritesNothing() {
        String key = newKey();
        assertThatNullPointerException()
                .isThrownBy(() -> store().claim(key, null, V1, longLease()));
        assertThat(store().find(key)).isEmpty();
    }

    @Test
    void claim_invalidFingerprint_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        for (String fingerprint :
                List.of(
                        "",
                        "f".repeat(io.idemkit.spi.StoreArguments.MAX_FINGERPRINT_LENGTH + 1),
                        FP + " ",
                        FP + "\u00e9",
                        FP + "\udfff",
                        FP + "\n")) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> store().claim(key, fingerprint, V1, longLease()));
        }
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claim_fingerprintVersionBelowOne_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        for (int version : new int[] {0, -1, Integer.MIN_VALUE}) {
            assertThatIllegalArgumentException()
                    .as("version %d", version)
                    .isThrownBy(() -> store().claim(key, FP, version, longLease()));
        }
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claim_fingerprintVersionThisLibraryDoesNotCompute_isWrittenAndReadAsItIs() {
        String key = newKey();
        ClaimResult claim = store().claim(key, FP, Integer.MAX_VALUE, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.record().fingerprintVersion()).isEqualTo(Integer.MAX_VALUE);
        assertThat(store().find(key).map(IdempotencyRecord::fingerprintVersion))
                .contains(Integer.MAX_VALUE);
        ClaimResult duplicate = store().claim(key, FP, V1, longLease());
        assertThat(duplicate.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(duplicate.record().token()).isEqualTo(claim.token());
    }

    @Test
    void claim_nullLeaseTtl_throwsNullPointerExceptionAndWritesNothing() {
        String key = newKey();
        assertThatNullPointerException().isThrownBy(() -> store().claim(key, FP, V1, null));
        assertThat(store().find(key)).isEmpty();
    }

    @Test
    void claim_leaseTtlOutOfRange_throwsIllegalArgumentExceptionAndWritesNothing() {
        String key = newKey();
        invalidTtls()
                .forEach(
                        (rule, ttl) ->
                                assertThatIllegalArgumentException()
                                        .as("a lease %s", rule)
                                        .isThrownBy(() -> store().claim(key, FP, V1, ttl)));
        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void claimRenewAndComplete_ttlsAtBothEndsOfTheRange_areAccepted() {
        Duration max = io.idemkit.spi.StoreArguments.MAX_TTL;
        String shortest = newKey();
        ClaimResult brief = store().claim(shortest, FP, V1, Duration.ofMillis(1));
        assertThat(brief.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(brief.record().leaseUntil()).isAfterOrEqualTo(brief.record().claimedAt());

        String longest = newKey();
        ClaimResult claim = store().claim(longest, FP, V1, max);
        assertThat(claim.record().leaseUntil())
                .isAfter(claim.record().claimedAt().plus(max.minusDays(1)));
        assertThat(store().renew(longest, claim.token(), max)).isTrue();
        assertThat(store().complete(longest, claim.token(), result("kept"), max)).isTrue();
        IdempotencyRecord completed = store().find(longest).orElseThrow();
        assertThat(completed.expiresAt()).isAfter(completed.completedAt().plus(max.minusDays(1)));
    }
}
