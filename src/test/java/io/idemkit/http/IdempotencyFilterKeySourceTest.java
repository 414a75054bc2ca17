package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import org.junit.jupiter.api.Test;

/**
 * The key from another header, and headers that enter the fingerprint (C6.1, C6.9), set globally
 * ({@code idemkit.key-header}, {@code idemkit.fingerprint.headers}).
 */
class IdempotencyFilterKeySourceTest extends IdempotencyFilterFixture {

    private static FakeRequest keyedBy(String header, String key) {
        return FakeRequest.of("POST", "orders").json(BODY).header(header, key);
    }

    @Test
    void anotherKeyHeader_carriesTheKey_andIdempotencyKeyIsThenJustAHeader() {
        Served first =
                filters("idemkit.key-header", "X-Request-Key")
                        .serve(keyedBy("X-Request-Key", KEY), this::created);
        Served again =
                filters("idemkit.key-header", "X-Request-Key")
                        .serve(keyedBy("X-Request-Key", KEY), this::created);
        Served other =
                filters("idemkit.key-header", "X-Request-Key")
                        .serve(keyedBy("Idempotency-Key", KEY), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(again.header("Idempotency-Replayed")).isEqualTo("true");
        // Not the configured header: an unkeyed request, which runs unprotected.
        assertThat(other.header("Idempotency-Replayed")).isNull();
        assertThat(runs).hasValue(2);
    }

    @Test
    void aFingerprintedHeader_withAnotherValue_isAMismatch_withTheSameValue_aReplay() {
        String[] currency = {"idemkit.fingerprint.headers", "Currency"};

        Served eur =
                filters(currency).serve(post(KEY, BODY).header("Currency", "EUR"), this::created);
        Served eurAgain =
                filters(currency).serve(post(KEY, BODY).header("Currency", "EUR"), this::created);
        Served usd =
                filters(currency).serve(post(KEY, BODY).header("Currency", "USD"), this::created);

        assertThat(eur.status()).isEqualTo(201);
        assertThat(eurAgain.header("Idempotency-Replayed")).isEqualTo("true");
        assertProblem(usd, 422, "urn:idemkit:payload-mismatch");
        assertThat(runs).hasValue(1);
    }

    @Test
    void withoutFingerprintedHeaders_anotherValueOfTheHeader_isStillAReplay() {
        filters().serve(post(KEY, BODY).header("Currency", "EUR"), this::created);
        Served usd = filters().serve(post(KEY, BODY).header("Currency", "USD"), this::created);

        assertThat(usd.header("Idempotency-Replayed")).isEqualTo("true");
    }
}
