package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.bson.BsonBinary;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/**
 * Claim, complete, release, renew and delete over the real driver against mongo-java-server
 * (contracts C2, C3, C9): what each writes and returns, fencing by token, takeovers, and documents
 * written by the Python store.
 */
class MongoClaimTest extends FreshStoreTest {

    @Test
    void freshClaim_isNewWithTokenAndServerStamps() {
        String key = key();
        Instant serverBefore = mongo.serverTime();

        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        IdempotencyRecord record = claim.record();
        assertThat(record.key()).isEqualTo(key);
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.fingerprint()).isEqualTo(FINGERPRINT);
        assertThat(record.token().value()).hasSize(32);
        assertThat(record.claimedAt()).isCloseTo(serverBefore, within(1, ChronoUnit.SECONDS));
        assertThat(record.leaseUntil()).isEqualTo(record.claimedAt().plus(LONG));
        assertThat(store.find(key)).contains(record);
    }

    @Test
    void secondClaimWhileLeaseIsLive_isAlreadyClaimedAndChangesNothing() {
        String key = key();
        ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LONG);

        ClaimResult second = store.claim(key, "other", VERSION, LONG);

        assertThat(second.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        assertThat(second.record()).isEqualTo(first.record());
        assertThatThrownBy(second::token).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void completedRecord_isReplayedOnClaim() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        Instant serverBefore = mongo.serverTime();

        assertThat(store.complete(key, token, result("{\"id\":1}"), Duration.ofHours(24))).isTrue();
        ClaimResult replay = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(replay.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        IdempotencyRecord record = replay.record();
        assertThat(record.state()).isEqualTo(RecordState.COMPLETED);
        assertThat(record.result()).isEqualTo(result("{\"id\":1}"));
        assertThat(record.completedAt()).isCloseTo(serverBefore, within(1, ChronoUnit.SECONDS));
        assertThat(record.expiresAt()).isEqualTo(record.completedAt().plus(Duration.ofHours(24)));
        assertThat(record.leaseUntil()).isEqualTo(record.expiresAt());
        assertThat(store.find(key)).contains(record);
    }

    @Test
    void headersWithRepeatedNamesDotsAndDollars_roundTripInOrder() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        StoredResult stored =
                new StoredResult(
                        200,
                        List.of(
                                new StoredHeader("Link", "<a>"),
                                new StoredHeader("x.dotted.name", "1"),
                                new StoredHeader("$dollar", "2"),
                                new StoredHeader("Link", "<b>")),
                        new byte[0]);

        store.complete(key, token, stored, LONG);

        assertThat(store.find(key).orElseThrow().result()).isEqualTo(stored);
    }

    @Test
    void pythonStoreDocument_isReadIncludingHeaderSubDocument() {
        String key = key();
        Instant now = mongo.serverTime();
        mongo.raw(settings.collection())
                .insertOne(
                        new BsonDocument("_id", new BsonString(key))
                                .append("state", new BsonString("COMPLETED"))
                                .append("fingerprint", new BsonString(FINGERPRINT))
                                .append("fingerprint_version", new BsonInt64(1))
                                .append("claim_token", new BsonString("ab".repeat(16)))
                                .append("claimed_at", date(now))
                                .append("lease_until", date(now.plus(LONG)))
                                .append("expire_at", date(now.plus(LONG).plusSeconds(60)))
                                .append("completed_at", date(now))
                                .append("response_status", new BsonInt32(200))
                                .append(
                                        "response_headers",
                                        new BsonDocument(
                                                "Content-Type", new BsonString("text/plain")))
                                .append("response_body", new BsonBinary("ok".getBytes())));

        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(claim.record().result().headers())
                .containsExactly(new StoredHeader("Content-Type", "text/plain"));
        assertThat(claim.record().result().body()).isEqualTo("ok".getBytes());
    }

    @Test
    void staleToken_cannotCompleteReleaseOrRenew() {
        String key = key();
        store.claim(key, FINGERPRINT, VERSION, LONG);
        ClaimToken stranger = ClaimToken.random();

        assertThat(store.complete(key, stranger, result("x"), LONG)).isFalse();
        assertThat(store.release(key, stranger)).isFalse();
        assertThat(store.renew(key, stranger, LONG)).isFalse();
        assertThat(store.find(key).orElseThrow().state()).isEqualTo(RecordState.CLAIMED);
    }

    @Test
    void release_deletesTheClaim_soTheNextClaimIsNew() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();

        assertThat(store.release(key, token)).isTrue();

        assertThat(store.find(key)).isEmpty();
        assertThat(store.release(key, token)).isFalse();
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.NEW);
    }

    @Test
    void releaseOfACompletedRecord_doesNothing() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("x"), LONG);

        assertThat(store.release(key, token)).isFalse();
        assertThat(store.renew(key, token, LONG)).isFalse();
        assertThat(store.find(key)).isPresent();
    }

    @Test
    void renew_movesTheLeaseOnTheServersClock() {
        String key = key();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LEASE);

        assertThat(store.renew(key, claim.token(), LONG)).isTrue();

        IdempotencyRecord renewed = store.find(key).orElseThrow();
        assertThat(renewed.leaseUntil()).isAfter(claim.record().leaseUntil());
        mongo.waitUntilPast(claim.record().leaseUntil());
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
    }

    @Test
    void lapsedLeaseNotYetTakenOver_canStillBeRenewed() {
        String key = key();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo.waitUntilPast(claim.record().leaseUntil());

        assertThat(store.find(key)).isPresent();
        assertThat(store.renew(key, claim.token(), LONG)).isTrue();
        assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
    }

    @Test
    void expiredLease_isReclaimedWithANewToken_andFencesTheOldOwner() {
        String key = key();
        ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LEASE);
        mongo.waitUntilPast(first.record().leaseUntil());

        ClaimResult reclaim = store.claim(key, "second", VERSION, LONG);

        assertThat(reclaim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
        assertThat(reclaim.token()).isNotEqualTo(first.token());
        assertThat(reclaim.record().fingerprint()).isEqualTo("second");
        assertThat(store.complete(key, first.token(), result("late"), LONG)).isFalse();
        assertThat(store.release(key, first.token())).isFalse();
        assertThat(store.renew(key, first.token(), LONG)).isFalse();
        assertThat(store.find(key)).contains(reclaim.record());
    }

    @Test
    void expiredResult_isNotFound_andIsClaimedAsNewWithoutOldFields() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        store.complete(key, token, result("old"), LEASE);
        mongo.waitUntilPast(mongo.serverTime().plus(LEASE));

        assertThat(store.find(key)).isEmpty();
        ClaimResult claim = store.claim(key, FINGERPRINT, VERSION, LONG);

        assertThat(claim.status()).isEqualTo(ClaimStatus.NEW);
        assertThat(claim.recoveredFromCorrupt()).isFalse();
        BsonDocument doc = mongo.raw(settings.collection()).find().first();
        assertThat(doc.keySet())
                .doesNotContain(
                        "completed_at",
                        "response_status",
                        "response_headers",
                        "response_body",
                        "response_body_check");
    }

    @Test
    void delete_erasesARecordInAnyState() {
        String claimed = key();
        String completed = key();
        store.claim(claimed, FINGERPRINT, VERSION, LONG);
        ClaimToken token = store.claim(completed, FINGERPRINT, VERSION, LONG).token();
        store.complete(completed, token, result("x"), LONG);

        assertThat(store.delete(claimed)).isTrue();
        assertThat(store.delete(completed)).isTrue();
        assertThat(store.delete(completed)).isFalse();
        assertThat(store.find(claimed)).isEmpty();
        assertThat(store.find(completed)).isEmpty();
    }

    private static BsonDateTime date(Instant instant) {
        return new BsonDateTime(instant.toEpochMilli());
    }
}
