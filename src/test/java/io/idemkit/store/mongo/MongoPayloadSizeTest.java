package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.client.MongoClient;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bodies are stored verbatim (C6.6), and MongoDB's 16 MiB document limit is enforced first. */
class MongoPayloadSizeTest {

    private static final int MIB = 1024 * 1024;

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final CommandCounter commands = new CommandCounter();
    private MongoClient client;
    private MongoIdempotencyStore store;

    @BeforeEach
    void newStore() {
        client = mongo.client(commands);
        store =
                new MongoIdempotencyStore(
                        client, InProcessMongo.freshSettings(), Clock.systemUTC());
    }

    @AfterEach
    void closeStore() {
        store.close();
        client.close();
    }

    @Test
    void oneMebibyteBinaryBody_roundTripsByteIdentically() {
        byte[] body = new byte[MIB];
        new SecureRandom().nextBytes(body);
        StoredResult stored =
                new StoredResult(
                        200,
                        List.of(new StoredHeader("Content-Type", "application/octet-stream")),
                        body);
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();

        assertThat(store.complete(key, token, stored, LONG)).isTrue();

        ClaimResult replay = store.claim(key, FINGERPRINT, VERSION, LONG);
        assertThat(replay.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
        assertThat(replay.record().result().body()).isEqualTo(body);
        assertThat(store.find(key).orElseThrow().result()).isEqualTo(stored);
    }

    @Test
    void resultOverTheDocumentLimit_isRefusedBeforeItIsSent_andTheClaimIsKept() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        StoredResult oversized = new StoredResult(200, List.of(), new byte[16 * MIB]);
        commands.reset();

        assertThatThrownBy(() -> store.complete(key, token, oversized, LONG))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("16 MiB")
                .hasMessageContaining("idemkit.max-body-bytes")
                .extracting(e -> ((IdempotencyStorageException) e).kind())
                .isEqualTo(IdempotencyStorageException.Kind.REFUSED);

        assertThat(commands.sent()).isEmpty();
        IdempotencyRecord record = store.find(key).orElseThrow();
        assertThat(record.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(record.token()).isEqualTo(token);
        assertThat(store.complete(key, token, result("small"), LONG)).isTrue();
    }

    @Test
    void manyLargeHeaders_countTowardsTheLimit() {
        String key = key();
        ClaimToken token = store.claim(key, FINGERPRINT, VERSION, LONG).token();
        String large = "v".repeat(MIB);
        List<StoredHeader> headers =
                IntStream.range(0, 16)
                        .mapToObj(i -> new StoredHeader("X-Large-" + i, large))
                        .toList();
        commands.reset();

        assertThatThrownBy(
                        () ->
                                store.complete(
                                        key,
                                        token,
                                        new StoredResult(200, headers, new byte[0]),
                                        LONG))
                .isInstanceOf(IdempotencyStorageException.class);
        assertThat(commands.sent()).isEmpty();
    }
}
