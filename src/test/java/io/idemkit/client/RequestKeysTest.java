package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The key rule (C14.2) and the operation keys it starts from (C14.1), without a client. */
class RequestKeysTest {

    private static final byte[] ORDER = "order-42/charge".getBytes(StandardCharsets.UTF_8);

    @Test
    void knownAnswer_matchesTheRuleAsWrittenInTheContract() {
        // Computed independently (Python's hmac over the length-prefixed parts of C14.2).
        assertThat(RequestKeys.derive(ORDER, "POST", "/api/payments", 1))
                .isEqualTo("aSWmxFPJXZAl4kIkLqr4dFXmtaUqBVG473iauv2ueAw");
        assertThat(RequestKeys.derive(ORDER, "POST", "/api/payments", 2))
                .isEqualTo("OnszW5E57fWfCADb2g0-8VA4LbbhRRsUBLAXLAiqMnU");
    }

    @Test
    void sameOperationMethodPathAndOccurrence_giveTheSameKey() {
        assertThat(RequestKeys.derive(ORDER, "post", "/a", 1))
                .isEqualTo(RequestKeys.derive(ORDER, "POST", "/a", 1));
    }

    @Test
    void anyPartChanged_givesAnotherKey() {
        String base = RequestKeys.derive(ORDER, "POST", "/a", 1);
        assertThat(RequestKeys.derive(ORDER, "PATCH", "/a", 1)).isNotEqualTo(base);
        assertThat(RequestKeys.derive(ORDER, "POST", "/b", 1)).isNotEqualTo(base);
        assertThat(RequestKeys.derive(ORDER, "POST", "/a", 2)).isNotEqualTo(base);
        assertThat(
                        RequestKeys.derive(
                                "order-43/charge".getBytes(StandardCharsets.UTF_8),
                                "POST",
                                "/a",
                                1))
                .isNotEqualTo(base);
    }

    @Test
    void partsAreLengthPrefixed_soNoTwoSplitsOfOneTextCollide() {
        assertThat(RequestKeys.derive(ORDER, "POST", "/a1", 1))
                .isNotEqualTo(RequestKeys.derive(ORDER, "POST", "/a", 11));
    }

    @Test
    void key_is43Base64UrlCharacters_farWithinTheServers255Bytes() {
        String key =
                RequestKeys.derive(
                        RequestKeys.randomOperationKey(), "POST", "/" + "x".repeat(5000), 99);
        assertThat(key).hasSize(43).matches("[A-Za-z0-9_-]{43}");
        assertThat(key.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(255);
    }

    @Test
    void randomOperationKeys_have128BitsThatAllVary() {
        int samples = 4000;
        int[] ones = new int[128];
        Set<String> distinct = new HashSet<>();
        for (int i = 0; i < samples; i++) {
            byte[] key = RequestKeys.randomOperationKey();
            assertThat(key).hasSize(16);
            distinct.add(java.util.HexFormat.of().formatHex(key));
            for (int bit = 0; bit < 128; bit++) {
                ones[bit] += (key[bit / 8] >> (bit % 8)) & 1;
            }
        }
        assertThat(distinct).hasSize(samples);
        // Every one of the 128 bits is random: each is set in about half the keys (a stuck bit,
        // or a key of fewer random bits, fails this by a wide margin: 4000 draws, ±8 sigma).
        for (int bit = 0; bit < 128; bit++) {
            assertThat(ones[bit]).as("bit %d", bit).isBetween(1750, 2250);
        }
    }

    @Test
    void derivedKeysOfRandomOperations_areAllDistinct() {
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 2000; i++) {
            keys.add(RequestKeys.derive(RequestKeys.randomOperationKey(), "POST", "/a", 1));
        }
        assertThat(keys).hasSize(2000);
    }

    @Test
    void canonicalPath_followsTheServersPathRule_andLeavesOutHostAndQuery() {
        assertThat(RequestKeys.canonicalPath(URI.create("http://a:1/x//y/?q=1"))).isEqualTo("/x/y");
        assertThat(RequestKeys.canonicalPath(URI.create("https://b/x/y?q=2#f"))).isEqualTo("/x/y");
        assertThat(RequestKeys.canonicalPath(URI.create("http://a/p%2fq%c3%a9")))
                .isEqualTo("/p%2Fq%C3%A9");
        assertThat(RequestKeys.canonicalPath(URI.create("http://a"))).isEqualTo("/");
        assertThat(RequestKeys.canonicalPath(URI.create("http://a/"))).isEqualTo("/");
    }

    @Test
    void occurrenceBelowOne_isRefused() {
        assertThatThrownBy(() -> RequestKeys.derive(ORDER, "POST", "/a", 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
