package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The in-memory store keeps one copy of the header lists its results have in common. */
class SharedHeadersTest {

    private static StoredHeader json() {
        // A new String each time, as each response's header is.
        return new StoredHeader(new String("Content-Type"), new String("application/json"));
    }

    @Test
    void resultsWithTheSameHeaders_shareOneList_andKeepTheirOwnBodies() {
        ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
        try (InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(clock, 10)) {
            for (String key : List.of("a", "b")) {
                ClaimToken token = store.claim(key, "fp", 1, Duration.ofSeconds(30)).token();
                StoredResult result = new StoredResult(201, List.of(json()), key.getBytes());
                assertThat(store.complete(key, token, result, Duration.ofHours(1))).isTrue();
            }

            StoredResult a = store.find("a").orElseThrow().result();
            StoredResult b = store.find("b").orElseThrow().result();
            assertThat(a.headers()).isSameAs(b.headers()).containsExactly(json());
            assertThat(a.body()).isEqualTo("a".getBytes());
            assertThat(b.body()).isEqualTo("b".getBytes());
            assertThat(a.status()).isEqualTo(201);
        }
    }

    @Test
    void aListWithAHeaderOfItsOwn_sharesTheHeadersInCommon() {
        SharedHeaders shared = new SharedHeaders();
        StoredResult first =
                shared.share(
                        new StoredResult(
                                201,
                                List.of(json(), new StoredHeader("Location", "/orders/1")),
                                new byte[0]));
        StoredResult second =
                shared.share(
                        new StoredResult(
                                201,
                                List.of(json(), new StoredHeader("Location", "/orders/2")),
                                new byte[0]));

        assertThat(second.headers().get(0)).isSameAs(first.headers().get(0));
        assertThat(second.headers())
                .containsExactly(json(), new StoredHeader("Location", "/orders/2"));
    }

    @Test
    void pastItsBound_aNewListIsStoredAsItCame() {
        SharedHeaders shared = new SharedHeaders();
        for (int i = 0; i < SharedHeaders.MOST + 10; i++) {
            List<StoredHeader> headers = List.of(new StoredHeader("Location", "/orders/" + i));
            StoredResult stored = shared.share(new StoredResult(201, headers, new byte[] {1}));
            assertThat(stored.headers()).isEqualTo(headers);
            assertThat(stored.body()).containsExactly(1);
        }
        StoredResult common = shared.share(new StoredResult(200, List.of(json()), new byte[0]));
        assertThat(common.headers()).containsExactly(json());
    }

    @Test
    void aLargeBody_orNoHeaders_isStoredAsItCame_withoutAnotherCopy() {
        SharedHeaders shared = new SharedHeaders();
        StoredResult large =
                new StoredResult(200, List.of(json()), new byte[SharedHeaders.LARGEST_BODY + 1]);
        StoredResult bare = new StoredResult(200, List.of(), new byte[] {1});

        assertThat(shared.share(large)).isSameAs(large);
        assertThat(shared.share(bare)).isSameAs(bare);
    }
}
