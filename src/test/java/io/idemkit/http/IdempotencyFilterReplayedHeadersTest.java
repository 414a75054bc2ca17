package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeResponse;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import org.junit.jupiter.api.Test;

/**
 * The headers a replay sends (C6.3): a stored record is input like any other, so the current
 * deny-list and the rules of a header field apply again at replay; and the credential headers are
 * never stored, whatever deny-list a deployment sets.
 */
class IdempotencyFilterReplayedHeadersTest extends IdempotencyFilterFixture {

    private static final String STORED = "idemkit.headers.stored";
    private static final String NEVER_STORED = "idemkit.headers.never-stored";

    private FakeResponse withHeader(FakeRequest request, String name, String value) {
        runs.incrementAndGet();
        return FakeResponse.of(201)
                .entity(CREATED, "application/json")
                .header("Location", "http://localhost/shop/api/orders/7")
                .header(name, value);
    }

    @Test
    void aHeaderStoredUnderAnotherConfiguration_isNotReplayedOnceTheDenyListNamesIt() {
        filters(STORED, "Content-Type,Location,X-Session")
                .serve(post(KEY, BODY), r -> withHeader(r, "X-Session", "s-41"));
        assertThat(header(record(KEY).orElseThrow(), "X-Session")).isEqualTo("s-41");

        Served replay =
                filters(STORED, "Content-Type,Location,X-Session", NEVER_STORED, "X-Session")
                        .serve(post(KEY, BODY), r -> withHeader(r, "X-Session", "other"));

        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.header("Location")).isEqualTo("http://localhost/shop/api/orders/7");
        assertThat(replay.header("X-Session")).isNull();
        assertThat(runs).hasValue(1);
    }

    @Test
    void aStoredValueWithCrLf_isNotReplayed_soItCannotSplitTheResponse() {
        filters(STORED, "Content-Type,Location,X-Note")
                .serve(post(KEY, BODY), r -> withHeader(r, "X-Note", "a\r\nSet-Cookie: evil=1"));

        Served replay =
                filters(STORED, "Content-Type,Location,X-Note")
                        .serve(post(KEY, BODY), r -> withHeader(r, "X-Note", "b"));

        assertThat(replay.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(replay.header("X-Note")).isNull();
        assertThat(replay.header("Set-Cookie")).isNull();
        assertThat(replay.header("Location")).isEqualTo("http://localhost/shop/api/orders/7");
    }

    @Test
    void aDeployedDenyList_addsToTheCredentialHeaders_neverReplacesThem() {
        Served first =
                filters(
                                STORED,
                                "Content-Type,Location,Set-Cookie,Authorization",
                                NEVER_STORED,
                                "Vary")
                        .serve(post(KEY, BODY), r -> withHeader(r, "Set-Cookie", "session=s3cr3t"));

        assertThat(first.status()).isEqualTo(201);
        assertThat(header(record(KEY).orElseThrow(), "Set-Cookie")).isNull();
        assertThat(header(record(KEY).orElseThrow(), "Location")).isNotNull();
    }
}
