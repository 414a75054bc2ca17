package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** CanonicalBody's choice by media type, as the reference's canonicalize_body makes it (C6.9). */
class CanonicalBodyTest {

    private static final byte[] JSON = "{\"b\": 1, \"a\": 2}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] FORM = "b=1&a=2".getBytes(StandardCharsets.UTF_8);

    private static String canonical(byte[] body, String contentType) {
        return new String(CanonicalBody.canonicalize(body, contentType), StandardCharsets.UTF_8);
    }

    @Test
    void jsonMediaType_withParametersOddCaseAndPythonWhiteSpace_isCanonicalized() {
        for (String type :
                new String[] {
                    "application/json",
                    "Application/JSON; charset=utf-8",
                    " application/json\t;x=y",
                    "\u00A0application/json\u0085",
                    "\u2007application/json\u202F"
                }) {
            assertThat(canonical(JSON, type)).as(type).isEqualTo("{\"a\":2,\"b\":1}");
        }
    }

    @Test
    void otherMediaTypes_keepRawBytes() {
        for (String type :
                new String[] {
                    "application/jsonp",
                    "application/problem+json",
                    "text/json",
                    "application/json\u200B",
                    "application/ json",
                    "",
                    "application/octet-stream"
                }) {
            assertThat(CanonicalBody.canonicalize(JSON, type)).as(type).isSameAs(JSON);
        }
        assertThat(CanonicalBody.canonicalize(JSON, null)).isSameAs(JSON);
    }

    @Test
    void formMediaType_isSortedAndReencoded() {
        assertThat(canonical(FORM, "APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8"))
                .isEqualTo("a=2&b=1");
    }

    @Test
    void formThatIsNotUtf8_keepsRawBytes() {
        byte[] latin1 = {'a', '=', (byte) 0xE9};
        assertThat(CanonicalBody.canonicalize(latin1, "application/x-www-form-urlencoded"))
                .isSameAs(latin1);
    }

    @Test
    void emptyBody_isReturnedAsIs() {
        byte[] empty = new byte[0];
        assertThat(CanonicalBody.canonicalize(empty, "application/json")).isSameAs(empty);
    }

    @Test
    void invalidJson_keepsRawBytes() {
        byte[] bad = "{not json".getBytes(StandardCharsets.UTF_8);
        assertThat(CanonicalBody.canonicalize(bad, "application/json")).isSameAs(bad);
    }
}
