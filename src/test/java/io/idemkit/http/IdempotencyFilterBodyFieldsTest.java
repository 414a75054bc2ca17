package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.JaxRsPipeline;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Only the named fields of a JSON body enter the fingerprint (C6.11), here named globally ({@code
 * idemkit.fingerprint.fields}): a retry whose body differs in another field (a nonce the client
 * regenerates) replays; one that changes a named field is a payload mismatch.
 */
class IdempotencyFilterBodyFieldsTest extends IdempotencyFilterFixture {

    private static final String[] FIELDS = {"idemkit.fingerprint.fields", "amount, order.id"};

    private static String charge(int amount, String order, String nonce) {
        return "{\"amount\":"
                + amount
                + ",\"order\":{\"id\":\""
                + order
                + "\",\"note\":\""
                + nonce
                + "\"},\"nonce\":\""
                + nonce
                + "\"}";
    }

    @Test
    void aRetryWithANewNonce_replaysTheStoredResult() {
        Served first = filters(FIELDS).serve(post(KEY, charge(100, "o1", "a")), this::created);
        Served retry = filters(FIELDS).serve(post(KEY, charge(100, "o1", "b")), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(retry.status()).isEqualTo(201);
        assertThat(retry.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(retry.text()).isEqualTo(CREATED);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aChangedNamedField_topLevelOrNested_isAPayloadMismatch() {
        filters(FIELDS).serve(post(KEY, charge(100, "o1", "a")), this::created);
        Served otherAmount =
                filters(FIELDS).serve(post(KEY, charge(200, "o1", "a")), this::created);
        Served otherOrder = filters(FIELDS).serve(post(KEY, charge(100, "o2", "a")), this::created);

        assertProblem(otherAmount, 422, "urn:idemkit:payload-mismatch");
        assertProblem(otherOrder, 422, "urn:idemkit:payload-mismatch");
        assertThat(runs).hasValue(1);
    }

    @Test
    void withoutNamedFields_aNewNonce_isAPayloadMismatch() {
        filters().serve(post(KEY, charge(100, "o1", "a")), this::created);
        Served retry = filters().serve(post(KEY, charge(100, "o1", "b")), this::created);

        assertProblem(retry, 422, "urn:idemkit:payload-mismatch");
    }

    @Test
    void aBodyThatIsNoJsonObject_isFingerprintedWhole() {
        byte[] form = "amount=100&nonce=a".getBytes(StandardCharsets.UTF_8);
        byte[] otherNonce = "amount=100&nonce=b".getBytes(StandardCharsets.UTF_8);

        Served first = filters(FIELDS).serve(formPost(form), this::created);
        Served same = filters(FIELDS).serve(formPost(form), this::created);
        Served other = filters(FIELDS).serve(formPost(otherNonce), this::created);

        assertThat(first.status()).isEqualTo(201);
        assertThat(same.header("Idempotency-Replayed")).isEqualTo("true");
        assertProblem(other, 422, "urn:idemkit:payload-mismatch");
    }

    @Test
    void aBodyWithNoneOfTheNamedFields_isWarnedAboutOnce_withoutItsContent() {
        JaxRsPipeline<IdempotencyFilter> filters = filters(FIELDS);
        try (CapturedLog log = CapturedLog.of("io.idemkit")) {
            filters.serve(post(KEY, "{\"total\":100,\"nonce\":\"secret-a\"}"), this::created);
            filters.serve(post("k2", "{\"total\":100,\"nonce\":\"secret-b\"}"), this::created);

            assertThat(log.warnings())
                    .singleElement()
                    .satisfies(
                            w ->
                                    assertThat(w)
                                            .contains(Orders.class.getName() + ".place()")
                                            .contains("amount, order.id")
                                            .doesNotContain("secret")
                                            .doesNotContain("total"));
        }
    }

    private static FakeRequest formPost(byte[] body) {
        return FakeRequest.of("POST", "orders")
                .body(body, "application/x-www-form-urlencoded")
                .header("Idempotency-Key", KEY);
    }
}
