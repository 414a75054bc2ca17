package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shortcut for a JSON body already in canonical form (C6.9): it takes exactly the bodies whose
 * canonical form is themselves, and leaves every doubtful one to the full canonicalization.
 */
class AlreadyCanonicalJsonTest {

    private static boolean recognized(String json) {
        return AlreadyCanonicalJson.test(json.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"amount\":1999,\"currency\":\"EUR\",\"to\":\"acct_42\"}",
                "{}",
                "[]",
                "[{},[],\"\",0,-1,true,false,null]",
                "{\"a\":{\"b\":[1,{\"c\":null}]},\"b\":\"x\"}",
                "{\"a\":\"\\\"\\\\\\n\\r\\t\\b\\f\\u0000\\u001f\\u000b\"}",
                "{\"a\":\"\u007fé中\uD83D\uDE00\"}",
                // Code point order, not UTF-16 order: U+FFFF sorts before U+1F600.
                "{\"\":0,\"z\":1,\"é\":2,\"\uFFFF\":3,\"\uD83D\uDE00\":4}",
                "{\"a\":123456789012345678901234567890}"
            })
    void canonicalBodies_areRecognized_andAreWhatTheFullPathWrites(String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        assertThat(AlreadyCanonicalJson.test(body)).isTrue();
        assertThat(CanonicalJson.byParsing(body))
                .hasValueSatisfying(c -> assertThat(c).isEqualTo(body));
        assertThat(CanonicalJson.canonicalize(body))
                .hasValueSatisfying(c -> assertThat(c).isSameAs(body));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"b\":1,\"a\":2}", // unsorted
                "{\"a\":1,\"a\":2}", // a duplicate: the last one wins
                "{\"é\":1,\"z\":2}",
                "{\"\uD83D\uDE00\":1,\"\uFFFF\":2}",
                "{ \"a\":1}", // white space
                "{\"a\":1}\n",
                " {\"a\":1}",
                "{\"a\":-0}", // written 0
                "{\"a\":01}",
                "{\"a\":1.5}", // a float's text is Python's repr
                "{\"a\":1e3}",
                "{\"a\":1E3}",
                "{\"a\":\"\\u0008\"}", // written \b
                "{\"a\":\"\\u000a\"}",
                "{\"a\":\"\\u001F\"}", // upper-case hex
                "{\"a\":\"\\u0041\"}", // written A
                "{\"a\":\"\\/\"}",
                "{\"a\\\"\":1}", // an escape in a key
                "{\"a\":tru}",
                "{\"a\":1",
                "{\"a\":1}x",
                "{\"a\":1,}",
                "[1,]",
                "{\"a\"}",
                "\"x\"", // a scalar root
                "42",
                "",
            })
    void otherBodies_areLeftToTheFullPath(String json) {
        assertThat(recognized(json)).isFalse();
    }

    @Test
    void malformedUtf8_isLeftToTheFullPath() {
        byte[][] strings = {
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded surrogate
            {(byte) 0xC0, (byte) 0xAF}, // overlong
            {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, // overlong
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // above U+10FFFF
            {(byte) 0xC3}, // truncated
            {(byte) 0x80}, // a lone continuation
        };
        for (byte[] inner : strings) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            body.writeBytes("{\"a\":\"".getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(inner);
            body.writeBytes("\"}".getBytes(StandardCharsets.US_ASCII));
            assertThat(AlreadyCanonicalJson.test(body.toByteArray())).isFalse();
        }
    }

    @Test
    void nestingBeyondTheShortcutsDepth_isLeftToTheFullPath() {
        int max = AlreadyCanonicalJson.MAX_DEPTH;
        assertThat(recognized("[".repeat(max) + "]".repeat(max))).isTrue();
        assertThat(recognized("[".repeat(max + 1) + "]".repeat(max + 1))).isFalse();
    }

    @Test
    void integersBeyondPythonsDigitLimit_areLeftToTheFullPath() {
        int max = CanonicalJson.MAX_INT_DIGITS;
        assertThat(recognized("[" + "9".repeat(max) + "]")).isTrue();
        assertThat(recognized("[" + "9".repeat(max + 1) + "]")).isFalse();
        assertThat(recognized("[-" + "9".repeat(max) + "]")).isTrue();
    }
}
