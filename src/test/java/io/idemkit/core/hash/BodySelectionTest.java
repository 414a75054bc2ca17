package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The named fields of a JSON body, in place of the body, in the fingerprint (C6.11).
 *
 * <p>The known answers were computed by the Python reference (idemkit/idemkit, {@code
 * python/idemkit}, unchanged, CPython 3.11): {@code compute_fingerprint(method, path, query,
 * select(body, content_type), None)}, the engine's call for a {@code body_fingerprint} callback,
 * with the callback of {@link BodySelection}'s class comment, which resolves paths with the
 * reference's own {@code _resolve_path} (its {@code key_fields} selector).
 */
class BodySelectionTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static BodySelection fields(String... paths) {
        return BodySelection.of(List.of(paths));
    }

    private static String selected(BodySelection selection, byte[] body) {
        return new String(selection.select(body).orElseThrow().canonical(), StandardCharsets.UTF_8);
    }

    private static String fingerprint(
            String method, String path, String query, BodySelection selection, byte[] body) {
        return Fingerprint.forHttp(
                method, path, query, selection.select(body).orElseThrow().canonical(), null);
    }

    @Test
    void bodiesDifferingOnlyInAFieldNotNamed_fingerprintAlike_inAnyOrderAndSpacing() {
        BodySelection amount = fields("amount", "order.id");
        byte[] first = utf8("{\"amount\":100,\"order\":{\"id\":\"o1\"},\"nonce\":\"a\"}");
        byte[] retry =
                utf8(
                        "{ \"nonce\": \"b\", \"order\": {\"id\": \"o1\", \"n\": 2}, \"amount\": 100 }");

        assertThat(fingerprint("POST", "/charges", "", amount, retry))
                .isEqualTo(fingerprint("POST", "/charges", "", amount, first));
        assertThat(Fingerprint.forHttp("POST", "/charges", "", retry, "application/json"))
                .isNotEqualTo(
                        Fingerprint.forHttp("POST", "/charges", "", first, "application/json"));
    }

    @Test
    void bodiesDifferingInANamedField_topLevelOrNested_fingerprintApart() {
        BodySelection amount = fields("amount", "order.id");
        String base =
                fingerprint(
                        "POST",
                        "/c",
                        "",
                        amount,
                        utf8("{\"amount\":100,\"order\":{\"id\":\"o1\"}}"));

        assertThat(
                        fingerprint(
                                "POST",
                                "/c",
                                "",
                                amount,
                                utf8("{\"amount\":101,\"order\":{\"id\":\"o1\"}}")))
                .isNotEqualTo(base);
        assertThat(
                        fingerprint(
                                "POST",
                                "/c",
                                "",
                                amount,
                                utf8("{\"amount\":100,\"order\":{\"id\":\"o2\"}}")))
                .isNotEqualTo(base);
        // Integer and float stay apart, as in a whole body (C6.9).
        assertThat(
                        fingerprint(
                                "POST",
                                "/c",
                                "",
                                amount,
                                utf8("{\"amount\":100.0,\"order\":{\"id\":\"o1\"}}")))
                .isNotEqualTo(base);
    }

    @Test
    void topLevelField_matchesReference() {
        byte[] body = utf8("{\"amount\":100,\"nonce\":\"a\"}");

        assertThat(selected(fields("amount"), body)).isEqualTo("{\"amount\":100}");
        assertThat(fingerprint("POST", "/charges", "", fields("amount"), body))
                .isEqualTo("e3c0891dc67bdafc462ded05ad025abce284c52dab75da383b81ebb0abc2ba2f");
    }

    @Test
    void nestedPath_isAMemberNamedByThePath_matchesReference() {
        byte[] body =
                utf8(
                        "{\"order\": {\"note\": \"n1\", \"id\": \"o-1\"}, \"nonce\": \"a\", \"amount\": 100}");

        assertThat(selected(fields("amount", "order.id"), body))
                .isEqualTo("{\"amount\":100,\"order.id\":\"o-1\"}");
        assertThat(fingerprint("POST", "/charges", "", fields("order.id", "amount"), body))
                .isEqualTo("f4497261689e594a3d65e3cf21035124b014cf90d574f634fbc475f385222249");
    }

    @Test
    void anAbsentField_isNull_matchesReference() {
        byte[] body = utf8("{\"amount\":100}");

        assertThat(selected(fields("amount", "currency"), body))
                .isEqualTo("{\"amount\":100,\"currency\":null}");
        assertThat(fields("amount", "currency").select(body).orElseThrow().found()).isEqualTo(1);
        assertThat(fingerprint("POST", "/charges", "", fields("amount", "currency"), body))
                .isEqualTo("9e508a7fc5b6489ecc70680588fcba047f7cea6873d01d47e95be812f0f6b122");
    }

    @Test
    void aPathThroughAnArrayOrANull_isNull_matchesReference() {
        byte[] body = utf8("{\"items\":[{\"sku\":\"a\"}],\"customer\":{\"address\":null}}");
        BodySelection through = fields("items.sku", "customer.address.zip");

        assertThat(selected(through, body))
                .isEqualTo("{\"customer.address.zip\":null,\"items.sku\":null}");
        assertThat(through.select(body).orElseThrow().found()).isZero();
        assertThat(fingerprint("POST", "/orders", "", through, body))
                .isEqualTo("789493bc0bbdb997b4cb4f65f1cba2a9bd0628eae4e5348d92edc6297775b56e");
    }

    @Test
    void anArrayNamed_isTakenWhole_canonical_withPathAndQuery_matchesReference() {
        byte[] body =
                utf8(
                        "{\"items\":[{\"sku\":\"b\",\"qty\":1.10,\"name\":\"café \uD83D\uDE00\"},"
                                + "{\"qty\":-0,\"sku\":\"a\",\"big\":1E5}],\"nonce\":\"x\"}");

        assertThat(selected(fields("items"), body))
                .isEqualTo(
                        "{\"items\":[{\"name\":\"café \uD83D\uDE00\",\"qty\":1.1,\"sku\":\"b\"},"
                                + "{\"big\":100000.0,\"qty\":0,\"sku\":\"a\"}]}");
        assertThat(fingerprint("PUT", "/a//orders/7/", "b=2&a=1", fields("items"), body))
                .isEqualTo("3b8e3b09c0f79a59b2900039927cf8888c76f123ae7335a3b87e0c4a18a31291");
    }

    @Test
    void anObjectNamed_isTakenWhole_keysSorted_escapesAndOverflowAsTheReference() {
        byte[] body =
                utf8("{\"customer\":{\"z\":\"\\u0001\\t\",\"a\":[true,false,null],\"m\":1e400}}");

        assertThat(selected(fields("customer"), body))
                .isEqualTo(
                        "{\"customer\":{\"a\":[true,false,null],\"m\":Infinity,\"z\":\"\\u0001\\t\"}}");
        assertThat(fingerprint("PATCH", "/x", "", fields("customer"), body))
                .isEqualTo("b6d7d94c16efb311084368354832ea95bcf05b1399a93b98936099aff1840f2a");
    }

    @Test
    void aRepeatedMember_theLastCounts_matchesReference() {
        byte[] body = utf8("{\"amount\":1,\"amount\":2}");

        assertThat(fingerprint("POST", "/charges", "", fields("amount"), body))
                .isEqualTo("48006d47fc8594730a49771b5cab575cbada4ddd8701f5f58cc35ff3ca7d3aa5");
    }

    @Test
    void aUtf16Body_andNonAsciiNames_matchReference() {
        byte[] utf16 =
                Base64.getDecoder()
                        .decode(
                                "//57ACIAYQBtAG8AdQBuAHQAIgA6ACAANQAsACAAIgB3AGgAbwAiADoAIAAiAPwAYgBlAHIAIgB9AA==");

        assertThat(fingerprint("POST", "/charges", "", fields("amount", "who"), utf16))
                .isEqualTo("66a3b8a79462426010bd7a0d6aeecc15f95c778d4a62cd7cd06b2a15d084ab30");
        assertThat(
                        fingerprint(
                                "POST",
                                "/charges",
                                "",
                                fields("métadonnées.clef"),
                                utf8("{\"métadonnées\":{\"clef\":\"v\"}}")))
                .isEqualTo("b7e40ece81770915b0e75a3217c6a8dd6a31f43387c6ea7269808356feb7d712");
    }

    @Test
    void aBodyThatIsNoJsonObject_hasNoSelection() {
        BodySelection amount = fields("amount");

        assertThat(amount.select(utf8("amount=100&nonce=a"))).isEmpty();
        assertThat(amount.select(utf8("{\"amount\":"))).isEmpty();
        assertThat(amount.select(utf8("[{\"amount\":100}]"))).isEmpty();
        assertThat(amount.select(utf8("100"))).isEmpty();
        assertThat(amount.select(new byte[0])).isEmpty();
        // The reference cannot encode a lone surrogate; an unnamed one does not matter.
        assertThat(amount.select(utf8("{\"amount\":\"\\ud800\"}"))).isEmpty();
        assertThat(amount.select(utf8("{\"amount\":1,\"x\":\"\\ud800\"}"))).isPresent();
        assertThat(BodySelection.WHOLE_BODY.select(utf8("{\"amount\":1}"))).isEmpty();
    }

    @Test
    void noPath_anEmptyOne_orAMalformedOne_isRefused_namingTheRule() {
        assertThatThrownBy(() -> BodySelection.of(List.of()))
                .hasMessageStartingWith("names no field");
        assertThatThrownBy(() -> BodySelection.of(List.of("amount", " ")))
                .hasMessageStartingWith("an empty field path");
        assertThatThrownBy(() -> BodySelection.checkPath("order..id"))
                .hasMessage(
                        "'order..id' is not a field path: member names are separated by single"
                                + " dots, and none is empty");
        assertThatThrownBy(() -> BodySelection.checkPath(".id"))
                .hasMessageContaining("single dots");
        assertThatThrownBy(() -> BodySelection.checkPath("order."))
                .hasMessageContaining("single dots");
        assertThatThrownBy(() -> BodySelection.checkPath("order. id"))
                .hasMessageContaining("white space");
        assertThat(BodySelection.of(List.of(" order.id ", "amount", "amount")).paths())
                .containsExactly("amount", "order.id");
    }
}
