package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonInt64;
import org.bson.BsonString;
import org.bson.BsonValue;
import org.junit.jupiter.api.Test;

/**
 * The pipeline path's update documents, read and checked here where no server runs them (C9): every
 * date is {@code $$NOW} plus a whole number of milliseconds, every constant is a {@code $literal}
 * (a fingerprint may start with {@code $}), and a replay's upsert keeps the matched document as it
 * is.
 */
class ServerStampedUpdatesTest {

    private static final ClaimToken TOKEN = new ClaimToken("0123456789abcdef0123456789abcdef");
    private static final ServerStampedUpdates.NewClaim CLAIM =
            new ServerStampedUpdates.NewClaim("$fingerprint", 1, TOKEN);
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration GRACE = Duration.ofSeconds(60);

    private static BsonDocument nowPlus(long millis) {
        return new BsonDocument(
                "$add", new BsonArray(List.of(new BsonString("$$NOW"), new BsonInt64(millis))));
    }

    private static BsonDocument literal(BsonValue value) {
        return new BsonDocument("$literal", value);
    }

    @Test
    void insertClaim_keepsAMatchedDocumentAndBuildsTheClaimOnInsert() {
        List<BsonDocument> pipeline = ServerStampedUpdates.insertClaim("k", CLAIM, LEASE, GRACE);

        assertThat(pipeline).hasSize(1);
        BsonArray cond = pipeline.get(0).getDocument("$replaceWith").getArray("$cond");
        assertThat(cond.get(0))
                .isEqualTo(BsonDocument.parse("{$eq: [{$type: '$lease_until'}, 'missing']}"));
        assertThat(cond.get(2)).isEqualTo(new BsonString("$$ROOT"));
        BsonDocument fresh = cond.get(1).asDocument();
        assertThat(fresh.keySet())
                .containsExactly(
                        "_id",
                        "state",
                        "fingerprint",
                        "fingerprint_version",
                        "claim_token",
                        "claimed_at",
                        "lease_until",
                        "expire_at");
        assertThat(fresh.get("_id")).isEqualTo(literal(new BsonString("k")));
        assertThat(fresh.get("state")).isEqualTo(literal(new BsonString("CLAIMED")));
        assertThat(fresh.get("fingerprint")).isEqualTo(literal(new BsonString("$fingerprint")));
        assertThat(fresh.get("claim_token")).isEqualTo(literal(new BsonString(TOKEN.value())));
        assertThat(fresh.get("claimed_at")).isEqualTo(new BsonString("$$NOW"));
        assertThat(fresh.get("lease_until")).isEqualTo(nowPlus(30_000));
        assertThat(fresh.get("expire_at")).isEqualTo(nowPlus(90_000));
    }

    @Test
    void takeOver_setsANewClaimStampedByTheServerAndRemovesTheResult() {
        List<BsonDocument> pipeline = ServerStampedUpdates.takeOver(CLAIM, LEASE, GRACE);

        assertThat(pipeline).hasSize(2);
        BsonDocument set = pipeline.get(0).getDocument("$set");
        assertThat(set.get("state")).isEqualTo(literal(new BsonString("CLAIMED")));
        assertThat(set.get("claimed_at")).isEqualTo(new BsonString("$$NOW"));
        assertThat(set.get("lease_until")).isEqualTo(nowPlus(30_000));
        assertThat(set.get("expire_at")).isEqualTo(nowPlus(90_000));
        List<String> unset = new ArrayList<>();
        pipeline.get(1).getArray("$unset").forEach(v -> unset.add(v.asString().getValue()));
        assertThat(unset).containsExactlyElementsOf(RecordLayout.RESULT_FIELDS);
    }

    @Test
    void complete_stampsCompletionAndRetentionWithTheServersNow() {
        StoredResult result =
                new StoredResult(201, List.of(new StoredHeader("Location", "$x")), new byte[] {1});
        BsonDocument set =
                ServerStampedUpdates.complete(TOKEN, result, Duration.ofHours(24), GRACE)
                        .get(0)
                        .getDocument("$set");

        assertThat(set.get("state")).isEqualTo(literal(new BsonString("COMPLETED")));
        assertThat(set.get("completed_at")).isEqualTo(new BsonString("$$NOW"));
        assertThat(set.get("lease_until")).isEqualTo(nowPlus(86_400_000));
        assertThat(set.get("expire_at")).isEqualTo(nowPlus(86_460_000));
        assertThat(set.getDocument("response_headers").get("$literal"))
                .isEqualTo(BsonDocument.parse("{h: [{name: 'Location', value: '$x'}]}").get("h"));
        for (String field : List.of("response_status", "response_body", "response_body_check")) {
            assertThat(set.getDocument(field).containsKey("$literal")).as(field).isTrue();
        }
    }

    @Test
    void renew_movesLeaseAndExpiryFromTheServersNow() {
        assertThat(ServerStampedUpdates.renew(LEASE, GRACE))
                .containsExactly(
                        new BsonDocument(
                                "$set",
                                new BsonDocument("lease_until", nowPlus(30_000))
                                        .append("expire_at", nowPlus(90_000))));
    }
}
