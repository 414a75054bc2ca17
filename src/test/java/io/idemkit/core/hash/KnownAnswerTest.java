package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The known answers of the Python reference that the Java port must reproduce (C1, C6.9). */
class KnownAnswerTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void effectiveKey_ofK1PostResources_matchesReference() {
        assertThat(EffectiveKey.forHttp("K1", "", "POST", "/resources"))
                .isEqualTo("0d0b159628acd4d2adf19f022453b1d3228b91445d96d245a11f20c7a6522bd6");
    }

    @Test
    void effectiveKey_withScopeLowerCaseMethodAndSlashes_matchesReference() {
        assertThat(EffectiveKey.forHttp("K1", "tenant-A:user-1", "post", "/a//b/"))
                .isEqualTo("e75b4c22840fb34a6a09da0672d91f5d7ca7bd803b8c5c194c06e352c9766a34");
    }

    @Test
    void effectiveKey_withNonAsciiKeyAndEncodedSlash_matchesReference() {
        assertThat(EffectiveKey.forHttp("café-über", "t", "PATCH", "/orders/%2fx/"))
                .isEqualTo("724aa5ab6bc6808272c760fda0589921a57a60952fc8396ba67906fda43e36d1");
    }

    @Test
    void effectiveKey_withNulInKey_matchesReference() {
        assertThat(EffectiveKey.forHttp("k\u0000tenant", "", "POST", "/"))
                .isEqualTo("f9e47c77fe778c1a4d83e1c790595efaa113948c9f085a787168d377ab98c954");
    }

    @Test
    void effectiveKey_withNulInKey_differsFromKeyAndScopeSplitAtNul() {
        // The length prefix keeps ("k\0tenant", "") and ("k", "tenant") apart (C1).
        assertThat(EffectiveKey.forHttp("k\u0000tenant", "", "POST", "/"))
                .isNotEqualTo(EffectiveKey.forHttp("k", "tenant", "POST", "/"));
    }

    @Test
    void effectiveKey_forMethodAndOf_useTheSameConstruction() {
        assertThat(EffectiveKey.forMethod("K1", "", "POST", "/resources"))
                .isEqualTo(EffectiveKey.forHttp("K1", "", "POST", "/resources"));
        assertThat(EffectiveKey.of(java.util.List.of("K1", "", "POST", "/resources")))
                .isEqualTo(EffectiveKey.forHttp("K1", "", "POST", "/resources"));
    }

    @Test
    void fingerprint_ofJsonWithSpace_matchesReference() {
        assertThat(
                        Fingerprint.forHttp(
                                "POST",
                                "/resources",
                                "",
                                utf8("{\"name\": \"x\"}"),
                                "application/json"))
                .isEqualTo("d082af5ad9ce892ceccabbc797e85eb1e50ce2681a622ca9a7d0be5827a39694");
    }

    @Test
    void fingerprint_ofQueryAndEscapedJsonWithCharset_matchesReference() {
        byte[] body = utf8("{\"z\":1,\"a\":[true,null,\"\\u00e9\"]}");
        assertThat(body).contains((byte) '\\');
        assertThat(
                        Fingerprint.forHttp(
                                "POST",
                                "/resources",
                                "b=2&a=1&a=0",
                                body,
                                "application/json; charset=utf-8"))
                .isEqualTo("027dfac61f4b8269c8d55f9b0dba847bac73565c55a699e8b93d8dc8e661e227");
    }

    @Test
    void fingerprint_ofFormBody_matchesReference() {
        assertThat(
                        Fingerprint.forHttp(
                                "POST",
                                "/r/",
                                "",
                                utf8("b=2&a=%7e1"),
                                "application/x-www-form-urlencoded"))
                .isEqualTo("0846936310b42815b07ab382554a811b0cabe615a9c1b266e88f66ddc48391e6");
    }

    @Test
    void fingerprint_ofInvalidJson_hashesRawBytesAsReference() {
        assertThat(Fingerprint.forHttp("PUT", "/r", "", utf8("{not json"), "application/json"))
                .isEqualTo("5b6466d2791f6600babe690e89d16b50e5f8795c787885e7e7bdc957ab09fe1d");
    }

    @Test
    void fingerprint_ofBinaryBody_hashesRawBytesAsReference() {
        byte[] body = {0, 1, 'b', 'i', 'n', 'a', 'r', 'y'};
        assertThat(Fingerprint.forHttp("POST", "/r", "", body, "application/octet-stream"))
                .isEqualTo("86d090facfe9d21e035b1bc44d4f7c4b716eb33b229dbf081bfce7d4768d5196");
    }

    @Test
    void fingerprint_withNullQuery_equalsEmptyQuery() {
        byte[] body = utf8("{}");
        assertThat(Fingerprint.forHttp("POST", "/r", null, body, "application/json"))
                .isEqualTo(Fingerprint.forHttp("POST", "/r", "", body, "application/json"));
    }

    @Test
    void path_withRepeatedAndTrailingSlashesAndLowerEscape_isCanonicalized() {
        assertThat(CanonicalPath.canonicalize("/a//b/%2fc/")).isEqualTo("/a/b/%2Fc");
    }

    @Test
    void query_unsortedWithEscapedTilde_isSortedAndReencoded() {
        assertThat(CanonicalQuery.canonicalize("b=2&a=1&a=0&c=%7e")).isEqualTo("a=0&a=1&b=2&c=~");
    }
}
