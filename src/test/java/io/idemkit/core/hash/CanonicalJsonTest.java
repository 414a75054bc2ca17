package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** CanonicalJson against answers taken from CPython 3.11's json module (C6.9). */
class CanonicalJsonTest {

    private static Optional<String> canonical(String json) {
        return canonical(json.getBytes(StandardCharsets.UTF_8));
    }

    private static Optional<String> canonical(byte[] json) {
        return CanonicalJson.canonicalize(json).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    @Test
    void duplicateKeys_keepLastValue_andSortKeys() {
        assertThat(canonical("{\"b\":1,\"a\":2,\"b\":3}")).hasValue("{\"a\":2,\"b\":3}");
    }

    @Test
    void numbers_printAsPythonDoes() {
        assertThat(
                        canonical(
                                "[1.0,1e16,1e-5,0.1,1.5E3,-0.0,1e400,123456789012345678901234567890,"
                                        + "5e-324,100,-0,2e-3,1e22,1e23]"))
                .hasValue(
                        "[1.0,1e+16,1e-05,0.1,1500.0,-0.0,Infinity,123456789012345678901234567890,"
                                + "5e-324,100,0,0.002,1e+22,1e+23]");
    }

    @Test
    void strings_escapeOnlyWhatPythonEscapes() {
        assertThat(canonical("\"\\u001f\\u007f\\u00e9\\ud83d\\ude00\\n\\/\""))
                .hasValue("\"\\u001f\u007fé\uD83D\uDE00\\n/\"");
    }

    @Test
    void keys_sortByCodePoint_notByUtf16Unit() {
        assertThat(canonical("{\"\\ud83d\\ude00\":2,\"\\ue000\":1}"))
                .hasValue("{\"\uE000\":1,\"\uD83D\uDE00\":2}");
    }

    @Test
    void topLevelScalars_areValidJson() {
        assertThat(canonical(" \"x\" ")).hasValue("\"x\"");
        assertThat(canonical("\n42\t")).hasValue("42");
        assertThat(canonical("null")).hasValue("null");
    }

    @Test
    void utf16AndUtf32Bodies_areDetectedAsJsonLoadsDoes() {
        String text = "{\"é\":[1]}";
        for (Charset charset :
                new Charset[] {
                    StandardCharsets.UTF_16LE,
                    StandardCharsets.UTF_16BE,
                    StandardCharsets.UTF_16,
                    Charset.forName("UTF-32LE"),
                    Charset.forName("UTF-32BE")
                }) {
            assertThat(canonical(text.getBytes(charset))).as(charset.name()).hasValue(text);
        }
    }

    @Test
    void utf8ByteOrderMark_isDropped() {
        byte[] body = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '[', ']'};
        assertThat(canonical(body)).hasValue("[]");
    }

    @Test
    void invalidJson_isEmpty_neverThrows() {
        for (String bad :
                new String[] {
                    "",
                    " ",
                    "{",
                    "[1,]",
                    "01",
                    "1.",
                    ".5",
                    "+1",
                    "1e",
                    "'a'",
                    "{a:1}",
                    "\"\u0001\"",
                    "\"a\tb\"",
                    "\"\\x41\"",
                    "[1] [2]",
                    "True",
                    "\uFEFF\uFEFF{}"
                }) {
            assertThat(canonical(bad)).as(bad).isEmpty();
        }
    }

    @Test
    void integerOver4300Digits_isEmpty_asPythonRefusesToReadIt() {
        assertThat(canonical("9".repeat(4300))).hasValue("9".repeat(4300));
        assertThat(canonical("-" + "9".repeat(4301))).isEmpty();
    }

    @Test
    void nestingOf990_isCanonicalized_butDeeperThanTheLimit_isEmpty() {
        assertThat(canonical("[".repeat(990) + "]".repeat(990))).isPresent();
        int tooDeep = CanonicalJson.MAX_DEPTH + 1;
        assertThat(canonical("[".repeat(tooDeep) + "]".repeat(tooDeep))).isEmpty();
    }

    // Known differences from the reference, documented in CanonicalJson.

    @Test
    void nanAndInfinityLiterals_areEmpty_whereThePythonReferenceAcceptsThem() {
        assertThat(canonical("[NaN]")).isEmpty();
        assertThat(canonical("Infinity")).isEmpty();
        assertThat(canonical("-Infinity")).isEmpty();
    }

    @Test
    void loneSurrogateInOutput_isEmpty_wherePythonRaises() {
        assertThat(canonical("\"\\ud800\"")).isEmpty();
        assertThat(canonical("{\"\\udc00\":1}")).isEmpty();
    }

    @Test
    void loneSurrogateInOverwrittenDuplicate_isDropped_asInPython() {
        assertThat(canonical("{\"a\":\"\\ud800\",\"a\":1}")).hasValue("{\"a\":1}");
    }

    @Test
    void surrogateEncodedInUtf8Bytes_isEmpty() {
        byte[] body = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        assertThat(canonical(body)).isEmpty();
    }
}
