package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * CanonicalQuery against {@code urlencode(sorted(parse_qsl(q, keep_blank_values=True)))} of CPython
 * 3.11 (C6.9).
 */
class CanonicalQueryTest {

    @Test
    void nullOrEmpty_isEmpty() {
        assertThat(CanonicalQuery.canonicalize(null)).isEmpty();
        assertThat(CanonicalQuery.canonicalize("")).isEmpty();
        assertThat(CanonicalQuery.canonicalize("&&")).isEmpty();
    }

    @Test
    void plus_isSpace_butEscapedPlusStaysPlus() {
        assertThat(CanonicalQuery.canonicalize("a+b=c+d&a%2Bb=%20")).isEqualTo("a+b=c+d&a%2Bb=+");
    }

    @Test
    void invalidEscapes_stayLiteral_andTheirPercentIsEncoded() {
        assertThat(CanonicalQuery.canonicalize("x=%zz&y=%4&z=%")).isEqualTo("x=%25zz&y=%254&z=%25");
    }

    @Test
    void invalidUtf8_becomesOneReplacementPerMaximalSubpart() {
        assertThat(CanonicalQuery.canonicalize("k=%C3&k=%E2%82&k=%F0%9F%98"))
                .isEqualTo("k=%EF%BF%BD&k=%EF%BF%BD&k=%EF%BF%BD");
        assertThat(CanonicalQuery.canonicalize("a=%ED%A0%80"))
                .isEqualTo("a=%EF%BF%BD%EF%BF%BD%EF%BF%BD");
    }

    @Test
    void blankFieldsAndFieldsWithoutEquals_areKept_andSplitAtFirstEquals() {
        assertThat(CanonicalQuery.canonicalize("&&b&=&a=1=2")).isEqualTo("=&a=1%3D2&b=");
    }

    @Test
    void names_sortByCodePoint() {
        assertThat(CanonicalQuery.canonicalize("é=%C3%A9&%F0%9F%98%80=1&\uE000=2"))
                .isEqualTo("%C3%A9=%C3%A9&%EE%80%80=2&%F0%9F%98%80=1");
    }

    @Test
    void loneSurrogate_isRefused_asPythonCannotEncodeIt() {
        assertThatThrownBy(() -> CanonicalQuery.canonicalize("a=\uD800"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
