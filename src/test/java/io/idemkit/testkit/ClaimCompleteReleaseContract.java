package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store contract's three basic transitions (C2, and C3's {@code claim}, {@code complete} and
 * {@code release}): a fresh key's claim is NEW with a fresh token and a CLAIMED record, and a
 * second claim sees the owner's record; a complete with the owner's token stores a result that
 * comes back byte for byte (status, headers in order, binary and empty bodies); a release with the
 * owner's token frees the key. A wrong token, a second complete or the release of a completed
 * record is refused and changes nothing.
 */
abstract class ClaimCompleteReleaseContract extends StoreContractSupport {

    // --- claim ---------------------------------------------------------------------------

    @Test
    void freshKey_claimIsNewWithTokenAndClaimedRecord() {
        String key = newKey();
        ClaimResult claim = store().claim(key, FP, V1, longLease());

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        IdempotencyRecord record = claim.record();
        assertThat(record.key()).isEqualTo(key);
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.fingerprint()).isEqualTo(FP);
        assertThat(record.fingerprintVersion()).isEqualTo(V1);
        assertThat(record.leaseUntil()).isAfter(record.claimedAt());
        assertThat(claim.token().value()).hasSizeGreaterThanOrEqualTo(32);
    }

    @Test
    void secondClaimOnLiveKey_isAlreadyClaimedAndReturnsOwnersRecord() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        ClaimResult second = store().claim(key, "other-fingerprint", V1, longLease());

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record().token()).isEqualTo(owner);
        assertThat(second.record().fingerprint()).isEqualTo(FP);
    }

    @Test
    void claimTokens_differForEveryWonClaim() {
        List<ClaimToken> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            tokens.add(claimNew(newKey()));
        }
        assertThat(tokens).doesNotHaveDuplicates();
    }

    // --- complete ------------------------------------------------------------------------

    @Test
    void completeWithOwnToken_storesResultThatTheNextClaimReplays() {
        String key = newKey();
        ClaimToken token = claimNew(key);

        assertThat(store().complete(key, token, result("body"), longLease())).isTrue();

        ClaimResult after = store().claim(key, FP, V1, longLease());
        assertThat(after.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(after.record().state()).isEqualTo(RecordState.COMPLETED);
        assertThat(after.record().result()).isEqualTo(result("body"));
        assertThat(after.record().fingerprint()).isEqualTo(FP);
        assertThat(after.record().completedAt()).isNotNull();
        assertThat(after.record().expiresAt()).isAfter(after.record().completedAt());
    }

    @Test
    void completedResult_roundTripsStatusHeadersInOrderAndBinaryBodyVerbatim() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        byte[] body = new byte[70_000];
        RANDOM.nextBytes(body);
        body[0] = 0;
        StoredResult stored =
                new StoredResult(
                        299,
                        List.of(
                                new StoredHeader("Link", "</a>; rel=next"),
                                new StoredHeader("Content-Type", "application/octet-stream"),
                                new StoredHeader("Link", "</b>; rel=prev"),
                                new StoredHeader("X.Dotted$Name", "")),
                        body);

        assertThat(store().complete(key, token, stored, longLease())).isTrue();

        assertThat(store().find(key)).get().extracting(IdempotencyRecord::result).isEqualTo(stored);
    }

    @Test
    void completedResult_withEmptyBody_roundTrips() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        StoredResult empty = new StoredResult(204, List.of(), new byte[0]);

        store().complete(key, token, empty, longLease());

        assertThat(store().claim(key, FP, V1, longLease()).record().result()).isEqualTo(empty);
    }

    @Test
    void completeWithWrongToken_isRejectedAndLeavesTheClaim() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        assertThat(store().complete(key, ClaimToken.random(), result("x"), longLease())).isFalse();

        IdempotencyRecord record = store().find(key).orElseThrow();
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.token()).isEqualTo(owner);
    }

    @Test
    void completeTwice_secondIsRejectedAndFirstResultStays() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("first"), longLease());

        assertThat(store().complete(key, token, result("second"), longLease())).isFalse();

        assertThat(store().find(key).orElseThrow().result()).isEqualTo(result("first"));
    }

    @Test
    void completeOnAbsentKey_isRejected() {
        String key = newKey();
        assertThat(store().complete(key, ClaimToken.random(), result("x"), longLease())).isFalse();
        assertThat(store().find(key)).isEmpty();
    }

    // --- release -------------------------------------------------------------------------

    @Test
    void releaseWithOwnToken_freesTheKeyForANewClaim() {
        String key = newKey();
        ClaimToken token = claimNew(key);

        assertThat(store().release(key, token)).isTrue();

        assertThat(store().find(key)).isEmpty();
        assertThat(store().claim(key, FP, V1, longLease()).status()).isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void releaseWithWrongToken_isRejectedAndKeepsTheClaim() {
        String key = newKey();
        ClaimToken owner = claimNew(key);

        assertThat(store().release(key, ClaimToken.random())).isFalse();

        assertThat(store().find(key).orElseThrow().token()).isEqualTo(owner);
    }

    @Test
    void releaseOfCompletedRecord_isRejectedAndKeepsTheResult() {
        String key = newKey();
        ClaimToken token = claimNew(key);
        store().complete(key, token, result("kept"), longLease());

        assertThat(store().release(key, token)).isFalse();

        assertThat(store().find(key).orElseThrow().result()).isEqualTo(result("kept"));
    }
}
