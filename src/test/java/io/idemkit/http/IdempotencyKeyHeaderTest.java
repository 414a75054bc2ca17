package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKeyMissingException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Idempotency-Key header rules of contract C6.1. */
class IdempotencyKeyHeaderTest {

    /** What a servlet container hands over: one char per byte of the wire. */
    private static String wire(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    @Test
    void absentHeader_isNoKey() {
        assertThat(IdempotencyKeyHeader.parse(null)).isEmpty();
        assertThat(IdempotencyKeyHeader.parse(List.of())).isEmpty();
    }

    @Test
    void bareAndQuotedForms_areTheSameKey() {
        assertThat(IdempotencyKeyHeader.parse(List.of("abc"))).contains("abc");
        assertThat(IdempotencyKeyHeader.parse(List.of("\"abc\""))).contains("abc");
        assertThat(IdempotencyKeyHeader.parse(List.of("  abc\t"))).contains("abc");
    }

    @Test
    void quotedForm_unescapesQuotesAndBackslashes() {
        assertThat(IdempotencyKeyHeader.parse(List.of("\"a\\\"b\\\\c\""))).contains("a\"b\\c");
    }

    @Test
    void theDraftsExample_quotedAsAStructuredFieldString_isTheBareKey() {
        // draft-ietf-httpapi-idempotency-key-header: the value is an RFC 8941 sf-string.
        String uuid = "8e03978e-40d5-43e8-bc93-6894a57f9324";
        assertThat(IdempotencyKeyHeader.parse(List.of("\"" + uuid + "\""))).contains(uuid);
        assertThat(IdempotencyKeyHeader.parse(List.of(uuid))).contains(uuid);
        assertThat(IdempotencyKeyHeader.parse(List.of("\" order 42 ~!\"")))
                .contains(" order 42 ~!");
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"zahlung-€\"", "\"a b\"", "\"ü\""})
    void aQuotedKey_holdsPrintableAsciiOnly(String value) {
        // RFC 8941 3.3.3: a String is printable ASCII; the same characters bare are a UTF-8 key.
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(wire(value))))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("beyond printable ASCII");
        String bare = value.substring(1, value.length() - 1);
        assertThat(IdempotencyKeyHeader.parse(List.of(wire(bare)))).contains(bare);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"abc\";p=1", "\"abc\" x", "\"a\"b\""})
    void textAfterTheClosingQuote_isRefused(String value) {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(value)))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("after its quoted string");
    }

    @Test
    void aQuotedKey_keepsThe255ByteLimit_countedWithoutItsQuotesAndEscapes() {
        String k255 = "k".repeat(254) + "\"";
        assertThat(IdempotencyKeyHeader.parse(List.of("\"" + k255.replace("\"", "\\\"") + "\"")))
                .contains(k255);
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of("\"" + "k".repeat(256) + "\"")))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("256 bytes");
    }

    @Test
    void multiByteKey_isDecodedFromItsUtf8Bytes() {
        assertThat(IdempotencyKeyHeader.parse(List.of(wire("zahlung-€-ü"))))
                .contains("zahlung-€-ü");
    }

    @Test
    void limit_is255BytesOfUtf8_notCharacters() {
        String euro85 = "€".repeat(85); // 255 bytes
        assertThat(IdempotencyKeyHeader.parse(List.of(wire(euro85)))).contains(euro85);
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(wire(euro85 + "a"))))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("256 bytes");
        assertThat(IdempotencyKeyHeader.parse(List.of("k"))).contains("k");
    }

    @Test
    void asciiKeys_keepTheSameLimit() {
        String ascii255 = "k".repeat(255);
        assertThat(IdempotencyKeyHeader.parse(List.of(ascii255))).contains(ascii255);
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(ascii255 + "k")))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("256 bytes");
        assertThat(IdempotencyKeyHeader.parse(List.of(" order 42 ~!\t"))).contains("order 42 ~!");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "   ",
                "\"\"",
                "\"open",
                "\"a\"b\"",
                "\"a\\x\"",
                "\"a\\\"",
                "a\u0001b",
                "a\u007fb",
                "\u00ff\u00fe"
            })
    void malformedKeys_areRefused(String value) {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(value)))
                .isInstanceOf(IdempotencyKeyMissingException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0080b", "a\u0085b", "a\u009fb", "\u0085", "\"a\u0090b\""})
    void c1ControlCharacters_areRefusedAsControlCharacters(String key) {
        // Sent as UTF-8 (C2 80 to C2 9F): valid UTF-8, refused for what it decodes to (C6.1).
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(wire(key))))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("control character");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\u0001b", "a\tb", "a\u007fb", "\"a\u001fb\""})
    void c0AndDel_areRefusedAsControlCharacters(String key) {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(wire(key))))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("control character");
    }

    @Test
    void charactersJustPastC1_areKeptAsSent() {
        // U+00A0 (no-break space) and U+00A1 are the first characters after C1: not controls.
        assertThat(IdempotencyKeyHeader.parse(List.of(wire("a\u00a0\u00a1b"))))
                .contains("a\u00a0\u00a1b");
    }

    @Test
    void headerSentTwice_isRefused() {
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of("a", "a")))
                .isInstanceOf(IdempotencyKeyMissingException.class)
                .hasMessageContaining("2 times");
    }

    @Test
    void refusal_neverContainsTheKey() {
        String secret = "s3cr3t-".repeat(40);
        assertThatThrownBy(() -> IdempotencyKeyHeader.parse(List.of(secret)))
                .hasMessageNotContaining("s3cr3t");
    }
}
