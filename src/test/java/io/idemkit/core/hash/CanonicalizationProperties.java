package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of the canonical forms and the hash construction (C1, C6.9). */
class CanonicalizationProperties {

    private static final String[] PATH_PIECES = {
        "/",
        "/",
        "%",
        "2",
        "f",
        "F",
        "a",
        "A",
        "z",
        "9",
        ".",
        "~",
        "-",
        "é",
        "中",
        "\uD83D\uDE00",
        " ",
        ";",
        "="
    };
    private static final String[] QUERY_PIECES = {
        "&",
        "&",
        "=",
        "=",
        "+",
        "%",
        "%",
        "2",
        "b",
        "B",
        "7",
        "e",
        "E",
        "f",
        "F",
        "z",
        "C3",
        "A9",
        "ED",
        "a",
        "é",
        "中",
        "\uD83D\uDE00",
        "\uE000",
        " ",
        "~",
        ".",
        "_",
        "-",
        "*",
        "\u0000"
    };

    @Provide
    Arbitrary<String> paths() {
        return Arbitraries.oneOf(
                Arbitraries.of(PATH_PIECES).list().ofMaxSize(30).map(l -> String.join("", l)),
                Arbitraries.strings().ascii().ofMaxLength(30));
    }

    @Provide
    Arbitrary<String> queries() {
        return Arbitraries.oneOf(
                Arbitraries.of(QUERY_PIECES).list().ofMaxSize(40).map(l -> String.join("", l)),
                Arbitraries.strings().ascii().ofMaxLength(40));
    }

    @Property
    void canonicalPath_canonicalizedAgain_isUnchanged(@ForAll("paths") String path) {
        String once = CanonicalPath.canonicalize(path);
        assertThat(CanonicalPath.canonicalize(once)).isEqualTo(once);
    }

    @Property
    void canonicalQuery_canonicalizedAgain_isUnchanged(@ForAll("queries") String query) {
        String once = CanonicalQuery.canonicalize(query);
        assertThat(CanonicalQuery.canonicalize(once)).isEqualTo(once);
    }

    @Property
    void canonicalQuery_ofShuffledFields_isTheSame(
            @ForAll("queries") String query, @ForAll Random random) {
        List<String> fields = new ArrayList<>(Arrays.asList(query.split("&", -1)));
        Collections.shuffle(fields, random);
        assertThat(CanonicalQuery.canonicalize(String.join("&", fields)))
                .isEqualTo(CanonicalQuery.canonicalize(query));
    }

    @Provide
    Arbitrary<String> jsonTexts() {
        return Arbitraries.recursive(this::jsonScalars, this::jsonContainers, 0, 4);
    }

    private Arbitrary<String> jsonScalars() {
        Arbitrary<String> strings =
                Arbitraries.strings()
                        .withChars("ab\"\\/\n\t\u0000\u001f\u007féß中\uE000\uFFFF")
                        .ofMaxLength(8)
                        .map(CanonicalizationProperties::jsonString);
        Arbitrary<String> doubles =
                Arbitraries.longs()
                        .map(Double::longBitsToDouble)
                        .filter(Double::isFinite)
                        .map(d -> Double.toString(d));
        Arbitrary<String> integers = Arbitraries.bigIntegers().map(Object::toString);
        return Arbitraries.oneOf(
                strings, doubles, integers, Arbitraries.of("true", "false", "null", "-0", "1e400"));
    }

    private Arbitrary<String> jsonContainers(Arbitrary<String> values) {
        Arbitrary<String> arrays =
                values.list().ofMaxSize(4).map(l -> "[ " + String.join(" , ", l) + "]");
        Arbitrary<String> members =
                Combinators.combine(Arbitraries.of("\"a\"", "\"b\"", "\"é\"", "\"\""), values)
                        .as((key, value) -> key + ":" + value);
        Arbitrary<String> objects =
                members.list().ofMaxSize(4).map(l -> "{" + String.join(",", l) + "}");
        return Arbitraries.oneOf(arrays, objects);
    }

    private static String jsonString(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    @Property
    void canonicalJson_canonicalizedAgain_isUnchanged(@ForAll("jsonTexts") String json) {
        // The full path both times: the shortcut would hand the canonical form back untouched.
        Optional<byte[]> once = CanonicalJson.byParsing(json.getBytes(StandardCharsets.UTF_8));
        assertThat(once).isPresent();
        String text = new String(once.get(), StandardCharsets.UTF_8);
        // Python writes overflow as Infinity, which is not JSON and does not parse again.
        if (!text.contains("Infinity")) {
            assertThat(CanonicalJson.byParsing(once.get()))
                    .hasValueSatisfying(again -> assertThat(again).isEqualTo(once.get()));
        }
    }

    @Property(tries = 2000)
    void canonicalJson_withTheShortcut_isTheFullCanonicalization(
            @ForAll("jsonTexts") String json,
            @ForAll int position,
            @ForAll byte replacement,
            @ForAll boolean insert) {
        // The canonical form, which the shortcut should mostly take, and one byte changed in it,
        // which it must only take when the full path agrees.
        byte[] canonical =
                CanonicalJson.byParsing(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
        int at = Math.floorMod(position, canonical.length + 1);
        byte[] changed = new byte[canonical.length + (insert ? 1 : 0)];
        System.arraycopy(canonical, 0, changed, 0, at);
        if (insert || at < canonical.length) {
            changed[at] = replacement;
        }
        int rest = insert ? at : at + 1;
        if (rest < canonical.length) {
            System.arraycopy(canonical, rest, changed, at + 1, canonical.length - rest);
        }
        for (byte[] body : new byte[][] {canonical, changed}) {
            byte[] full = CanonicalJson.byParsing(body).orElse(body);
            assertThat(CanonicalJson.canonicalize(body).orElse(body)).isEqualTo(full);
            if (AlreadyCanonicalJson.test(body)) {
                assertThat(full).isEqualTo(body);
            }
        }
    }

    @Property(tries = 2000)
    void canonicalJson_ofCompactJson_isTheFullCanonicalization(
            @ForAll("compactTexts") String json) {
        // Compact JSON, close to canonical: keys out of order or repeated, every kind of escape,
        // -0 and leading zeros. The shortcut may take only what the full path writes unchanged.
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        byte[] full = CanonicalJson.byParsing(body).orElse(body);
        assertThat(CanonicalJson.canonicalize(body).orElse(body)).as(json).isEqualTo(full);
    }

    @Provide
    Arbitrary<String> compactTexts() {
        String[] pieces = {
            "a",
            "b",
            "é",
            "\uFFFF",
            "\uD83D\uDE00",
            "\\\"",
            "\\\\",
            "\\n",
            "\\b",
            "\\/",
            "\\u0008",
            "\\u000a",
            "\\u001f",
            "\\u001F",
            "\\u0000",
            "\\u0041",
            "\\ud83d\\ude00"
        };
        Arbitrary<String> strings =
                Arbitraries.of(pieces)
                        .list()
                        .ofMaxSize(3)
                        .map(l -> "\"" + String.join("", l) + "\"");
        Arbitrary<String> scalars =
                Arbitraries.oneOf(
                        strings,
                        Arbitraries.of("0", "-0", "01", "-01", "1999", "-5", "1.5", "1e3", "-"),
                        Arbitraries.of("true", "false", "null"));
        Arbitrary<String> keys =
                Arbitraries.of(
                                "a",
                                "b",
                                "Z",
                                "é",
                                "\uFFFF",
                                "\uD83D\uDE00",
                                "",
                                "\\\"",
                                "\\n",
                                "\\u0061")
                        .map(k -> "\"" + k + "\"");
        return Arbitraries.recursive(
                () -> scalars,
                values ->
                        Arbitraries.oneOf(
                                values.list()
                                        .ofMaxSize(3)
                                        .map(l -> "[" + String.join(",", l) + "]"),
                                Combinators.combine(keys, values)
                                        .as((k, v) -> k + ":" + v)
                                        .list()
                                        .ofMaxSize(3)
                                        .map(l -> "{" + String.join(",", l) + "}")),
                1,
                3);
    }

    @Property
    void canonicalJson_ofIntegersStringsAndLiterals_isTakenByTheShortcut(
            @ForAll("shortcutTexts") String json) {
        byte[] canonical =
                CanonicalJson.byParsing(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertThat(AlreadyCanonicalJson.test(canonical)).as(json).isTrue();
    }

    @Provide
    Arbitrary<String> shortcutTexts() {
        // Containers of anything the shortcut covers: no floats, no -0, no deep nesting.
        Arbitrary<String> scalars =
                Arbitraries.oneOf(
                        Arbitraries.strings()
                                .withChars("ab\"\\/\n\t\b\f\u0000\u001f\u007féß中\uE000\uFFFF")
                                .ofMaxLength(8)
                                .map(CanonicalizationProperties::jsonString),
                        Arbitraries.bigIntegers().map(Object::toString),
                        Arbitraries.of("true", "false", "null"));
        return Arbitraries.recursive(() -> scalars, this::jsonContainers, 1, 4)
                .filter(t -> t.startsWith("{") || t.startsWith("["));
    }

    @Property
    void canonicalBody_ofArbitraryBytes_neverThrows(
            @ForAll byte[] body,
            @ForAll("contentTypes") String contentType,
            @ForAll("jsonTexts") String json,
            @ForAll int cut) {
        assertThatCode(() -> CanonicalBody.canonicalize(body, contentType))
                .doesNotThrowAnyException();
        byte[] truncated = json.getBytes(StandardCharsets.UTF_8);
        truncated = Arrays.copyOf(truncated, Math.floorMod(cut, truncated.length + 1));
        byte[] broken = truncated;
        assertThatCode(() -> CanonicalJson.canonicalize(broken)).doesNotThrowAnyException();
        assertThatCode(() -> Fingerprint.forHttp("POST", "/", null, broken, contentType))
                .doesNotThrowAnyException();
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of(
                "application/json",
                "application/x-www-form-urlencoded",
                "application/octet-stream",
                "",
                "Application/JSON; charset=utf-16");
    }

    @Property
    void floatRepr_readsBackAsTheSameDouble_inNoMoreDigitsThanJava(@ForAll long bits) {
        double value = Double.longBitsToDouble(bits);
        if (!Double.isFinite(value)) {
            return;
        }
        String repr = PythonFloatRepr.format(value);
        assertThat(Double.doubleToRawLongBits(Double.parseDouble(repr))).isEqualTo(bits);
        assertThat(significantDigits(repr))
                .isLessThanOrEqualTo(significantDigits(Double.toString(value)));
    }

    @Property
    void floatRepr_shortcutFromTheDecimal_agreesWithTheSearch(@ForAll("decimals") String decimal) {
        double value = Double.parseDouble(decimal);
        if (Double.isFinite(value)) {
            assertThat(PythonFloatRepr.format(value, decimal))
                    .isEqualTo(PythonFloatRepr.format(value));
        }
    }

    @Provide
    Arbitrary<String> decimals() {
        Arbitrary<String> integer =
                Arbitraries.strings()
                        .numeric()
                        .ofMinLength(1)
                        .ofMaxLength(20)
                        .map(s -> s.replaceFirst("^0+(?=.)", ""));
        Arbitrary<String> fraction =
                Arbitraries.strings()
                        .numeric()
                        .ofMinLength(1)
                        .ofMaxLength(20)
                        .injectNull(0.3)
                        .map(s -> s == null ? "" : "." + s);
        Arbitrary<String> exponent =
                Arbitraries.integers()
                        .between(-340, 320)
                        .injectNull(0.3)
                        .map(e -> e == null ? "" : "e" + e);
        return Combinators.combine(Arbitraries.of("", "-"), integer, fraction, exponent)
                .as((sign, i, f, e) -> sign + i + f + e);
    }

    private static int significantDigits(String number) {
        String mantissa = number.split("[eE]")[0].replace("-", "").replace(".", "");
        String trimmed = mantissa.replaceFirst("^0+", "").replaceFirst("0+$", "");
        return Math.max(1, trimmed.length());
    }

    @Property
    void codePointOrder_agreesWithComparingCodePoints(
            @ForAll("wellFormed") String a, @ForAll("wellFormed") String b) {
        int expected = Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
        assertThat(Integer.signum(CodePointOrder.compare(a, b)))
                .isEqualTo(Integer.signum(expected));
    }

    @Provide
    Arbitrary<String> wellFormed() {
        return Arbitraries.strings()
                .withChars("a\uD7FF\uE000\uFFFF\uD800\uDC00\uDBFF\uDFFF")
                .ofMaxLength(6)
                .map(
                        s ->
                                s.codePoints()
                                        .filter(
                                                cp ->
                                                        !Character.isSurrogate((char) cp)
                                                                || cp > 0xFFFF)
                                        .collect(
                                                StringBuilder::new,
                                                StringBuilder::appendCodePoint,
                                                StringBuilder::append)
                                        .toString());
    }

    @Property
    void strictUtf8Decoding_agreesWithTheJdkDecoder(@ForAll byte[] bytes) {
        Optional<String> jdk;
        try {
            jdk =
                    Optional.of(
                            StandardCharsets.UTF_8
                                    .newDecoder()
                                    .onMalformedInput(CodingErrorAction.REPORT)
                                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                                    .decode(ByteBuffer.wrap(bytes))
                                    .toString());
        } catch (CharacterCodingException e) {
            jdk = Optional.empty();
        }
        assertThat(Utf8.decodeStrict(bytes)).isEqualTo(jdk);
    }

    @Property
    void lengthPrefix_movingOneByteBetweenParts_changesTheHash(
            @ForAll byte[] first, @ForAll byte[] second) {
        if (second.length == 0) {
            return;
        }
        byte[] longer = Arrays.copyOf(first, first.length + 1);
        longer[first.length] = second[0];
        byte[] shorter = Arrays.copyOfRange(second, 1, second.length);
        assertThat(LengthPrefixedSha256.hex(first, second))
                .isNotEqualTo(LengthPrefixedSha256.hex(longer, shorter))
                .isEqualTo(LengthPrefixedSha256.hex(List.of(first, second)));
    }
}
