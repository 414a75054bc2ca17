package io.idemkit.core.hash;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * UTF-8 the way CPython's codec does it: strict encoding that refuses lone surrogates, strict
 * decoding, and decoding with {@code errors='replace'}, which puts one U+FFFD for each maximal
 * ill-formed subpart (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts").
 *
 * <p>Well-formed UTF-8 here is that of RFC 3629: no overlong forms, no encoded surrogates, nothing
 * above U+10FFFF.
 */
final class Utf8 {

    private Utf8() {}

    /**
     * Encodes a string, like Python's {@code str.encode("utf-8")}.
     *
     * @param s well-formed UTF-16: every surrogate in a pair
     * @return the UTF-8 bytes
     * @throws IllegalArgumentException on a lone surrogate, where Python raises {@code
     *     UnicodeEncodeError} (the JDK's encoder would silently write {@code ?} instead)
     */
    static byte[] encode(String s) {
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c)
                        && i + 1 < length
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    throw new IllegalArgumentException(
                            "not well-formed UTF-16: a lone surrogate at index " + i);
                }
            }
        }
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Decodes strictly, like Python's {@code bytes.decode("utf-8")}.
     *
     * @param bytes any bytes
     * @return the text, or empty when the bytes are not well-formed UTF-8
     */
    static Optional<String> decodeStrict(byte[] bytes) {
        char[] chars = new char[bytes.length];
        int count = decode(bytes, 0, bytes.length, chars, false);
        return count < 0 ? Optional.empty() : Optional.of(new String(chars, 0, count));
    }

    /**
     * Decodes {@code src[from, to)} into {@code dst} from index 0. A UTF-8 sequence never yields
     * more UTF-16 units than it has bytes, so {@code dst} needs {@code to - from} chars at most.
     *
     * @param replace true for Python's {@code errors='replace'}, false for strict decoding
     * @return the number of chars written, or -1 when strict and the bytes are ill-formed
     */
    static int decode(byte[] src, int from, int to, char[] dst, boolean replace) {
        int out = 0;
        int i = from;
        while (i < to) {
            int b = src[i] & 0xFF;
            if (b < 0x80) {
                dst[out++] = (char) b;
                i++;
                continue;
            }
            int trailing;
            int secondMin = 0x80;
            int secondMax = 0xBF;
            int codePoint;
            if (b >= 0xC2 && b <= 0xDF) {
                trailing = 1;
                codePoint = b & 0x1F;
            } else if (b >= 0xE0 && b <= 0xEF) {
                trailing = 2;
                codePoint = b & 0x0F;
                if (b == 0xE0) {
                    secondMin = 0xA0; // no overlong forms
                } else if (b == 0xED) {
                    secondMax = 0x9F; // no surrogates
                }
            } else if (b >= 0xF0 && b <= 0xF4) {
                trailing = 3;
                codePoint = b & 0x07;
                if (b == 0xF0) {
                    secondMin = 0x90; // no overlong forms
                } else if (b == 0xF4) {
                    secondMax = 0x8F; // nothing above U+10FFFF
                }
            } else {
                if (!replace) {
                    return -1;
                }
                dst[out++] = '\uFFFD';
                i++;
                continue;
            }
            int j = i + 1;
            int accepted = 0;
            while (accepted < trailing && j < to) {
                int next = src[j] & 0xFF;
                int min = accepted == 0 ? secondMin : 0x80;
                int max = accepted == 0 ? secondMax : 0xBF;
                if (next < min || next > max) {
                    break;
                }
                codePoint = (codePoint << 6) | (next & 0x3F);
                accepted++;
                j++;
            }
            if (accepted < trailing) {
                if (!replace) {
                    return -1;
                }
                // The lead byte and the continuation bytes accepted so far are one maximal
                // subpart; decoding resumes at the byte that broke the sequence.
                dst[out++] = '\uFFFD';
                i = j;
                continue;
            }
            if (codePoint >= Character.MIN_SUPPLEMENTARY_CODE_POINT) {
                dst[out++] = Character.highSurrogate(codePoint);
                dst[out++] = Character.lowSurrogate(codePoint);
            } else {
                dst[out++] = (char) codePoint;
            }
            i = j;
        }
        return out;
    }
}
