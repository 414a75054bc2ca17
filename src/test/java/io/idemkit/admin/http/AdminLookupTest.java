package io.idemkit.admin.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import jakarta.json.Json;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * The admin HTTP API's lookup of a record by the raw parts of an HTTP request or a method call
 * (docs/operating.md): what it finds, and how it refuses a lookup it cannot read, without reading a
 * body it was not sent as JSON.
 */
class AdminLookupTest extends AdminEndpointFixture {

    @Test
    void lookupByTheRawPartsOfAnHttpRequest_200() {
        String effectiveKey = completed("order-7");
        String lookup =
                Json.createObjectBuilder()
                        .add("key", "order-7")
                        .add("scope", ScopeResolver.SINGLE_TENANT_SCOPE)
                        .add("method", "post")
                        .add("path", PATH)
                        .add("body", true)
                        .build()
                        .toString();

        Served served =
                call(endpoint(), as(OPERATOR, "POST", PREFIX + "records/lookup").json(lookup));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.json().getString("effectiveKey")).isEqualTo(effectiveKey);
        assertThat(Base64.getDecoder().decode(served.json().getString("body"))).isEqualTo(BODY);
        assertThat(served.text()).doesNotContain("order-7");
    }

    @Test
    void lookupByTheRawPartsOfAMethodCall_findsItsRecord() {
        String effectiveKey =
                EffectiveKey.forMethod("k", "s", "com.shop.Orders", "place(java.lang.String)");
        engine.admit(new Operation(effectiveKey, "fp", 1, POLICY, "method"));
        String lookup =
                "{\"key\":\"k\",\"scope\":\"s\",\"beanClass\":\"com.shop.Orders\","
                        + "\"methodSignature\":\"place(java.lang.String)\"}";

        Served served =
                call(endpoint(), as(OPERATOR, "POST", PREFIX + "records/lookup").json(lookup));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.json().getString("effectiveKey")).isEqualTo(effectiveKey);
        assertThat(served.json().containsKey("body")).isFalse();
    }

    @Test
    void lookupOfNothingStored_404() {
        String lookup = "{\"key\":\"k\",\"scope\":\"s\",\"method\":\"POST\",\"path\":\"/x\"}";

        Served served =
                call(endpoint(), as(OPERATOR, "POST", PREFIX + "records/lookup").json(lookup));

        assertProblem(served, 404, "urn:idemkit:record-not-found");
    }

    @Test
    void badLookups_400() {
        AdminEndpoint endpoint = endpoint();
        String[] bodies = {
            "not json",
            "[1]",
            "{\"key\":\"k\",\"scope\":\"s\"}",
            "{\"key\":\"k\",\"scope\":\"s\",\"method\":\"POST\"}",
            "{\"key\":7,\"scope\":\"s\",\"method\":\"POST\",\"path\":\"/x\"}",
            "{\"key\":\"" + "k".repeat(64 * 1024) + "\"}"
        };

        for (String body : bodies) {
            Served served =
                    call(endpoint, as(OPERATOR, "POST", PREFIX + "records/lookup").json(body));

            assertProblem(served, 400, "urn:idemkit:admin-bad-request");
        }
    }

    @Test
    void lookupWithoutABody_400() {
        Served served = call(endpoint(), as(OPERATOR, "POST", PREFIX + "records/lookup").json(""));

        assertProblem(served, 400, "urn:idemkit:admin-bad-request");
    }

    @Test
    void lookupNotSentAsJson_415_andItsBodyIsNotRead() {
        completed("order-7");
        String lookup =
                "{\"key\":\"order-7\",\"scope\":\""
                        + ScopeResolver.SINGLE_TENANT_SCOPE
                        + "\",\"method\":\"POST\",\"path\":\""
                        + PATH
                        + "\"}";
        byte[] bytes = lookup.getBytes(StandardCharsets.UTF_8);
        AdminEndpoint endpoint = endpoint();

        for (String type :
                new String[] {
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "application/problem+json",
                    "order-7 \"json\""
                }) {
            Served served =
                    call(
                            endpoint,
                            as(OPERATOR, "POST", PREFIX + "records/lookup").body(bytes, type));

            assertProblem(served, 415, "urn:idemkit:admin-unsupported-media-type");
            assertThat(served.text()).doesNotContain("order-7");
        }
        FakeRequest untyped = as(OPERATOR, "POST", PREFIX + "records/lookup");
        assertProblem(call(endpoint, untyped), 415, "urn:idemkit:admin-unsupported-media-type");
        Served withCharset =
                call(
                        endpoint,
                        as(OPERATOR, "POST", PREFIX + "records/lookup")
                                .body(bytes, "application/json; charset=UTF-8"));
        assertThat(withCharset.status()).isEqualTo(200);
    }
}
