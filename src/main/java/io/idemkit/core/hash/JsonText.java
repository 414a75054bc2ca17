package io.idemkit.core.hash;

import java.nio.CharBuffer;
import java.util.Optional;

/**
 * The text of a JSON body given as bytes, found as Python's {@code json.loads(bytes)} finds it: the
 * encoding from {@code json.detect_encoding} (a UTF-32 or UTF-16 byte order mark, a UTF-8 one that
 * is dropped, else the pattern of zero bytes among the first four, else UTF-8), then strict
 * decoding.
 *
 * <p>Python decodes with {@code errors='surrogatepass'}, so an encoded or unpaired surrogate
 * reaches its parser as a lone surrogate, and the reference then fails to encode its output (unless
 * that string was dropped as a duplicate key's earlier value). Here such input is simply not
 * decodable, and the body is fingerprinted raw.
 */
final class JsonText {

    private JsonText() {}

    /**
     * Decodes a JSON body.
     *
     * @param bytes the body
     * @return its text, without a byte order mark; empty when the bytes do not decode
     */
    static Optional<CharBuffer> decode(byte[] bytes) {
        int n = bytes.length;
        int b0 = n > 0 ? bytes[0] & 0xFF : -1;
        int b1 = n > 1 ? bytes[1] & 0xFF : -1;
        int b2 = n > 2 ? bytes[2] & 0xFF : -1;
        int b3 = n > 3 ? bytes[3] & 0xFF : -1;
        if (b0 == 0 && b1 == 0 && b2 == 0xFE && b3 == 0xFF) {
            return utf32(bytes, 4, true);
        }
        if (b0 == 0xFF && b1 == 0xFE && b2 == 0 && b3 == 0) {
            return utf32(bytes, 4, false);
        }
        if (b0 == 0xFE && b1 == 0xFF) {
            return utf16(bytes, 2, true);
        }
        if (b0 == 0xFF && b1 == 0xFE) {
            return utf16(bytes, 2, false);
        }
        if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) {
            return utf8(bytes, 3);
        }
        if (n >= 4) {
            if (b0 == 0) {
                return b1 != 0 ? utf16(bytes, 0, true) : utf32(bytes, 0, true);
            }
            if (b1 == 0) {
                return b2 != 0 || b3 != 0 ? utf16(bytes, 0, false) : utf32(bytes, 0, false);
            }
        } else if (n == 2) {
            if (b0 == 0) {
                return utf16(bytes, 0, true);
            }
            if (b1 == 0) {
                return utf16(bytes, 0, false);
            }
        }
        return utf8(bytes, 0);
    }

    private static Optional<CharBuffer> utf8(byte[] bytes, int from) {
        char[] chars = new char[bytes.length - from];
        int count = Utf8.decode(bytes, from, bytes.length, chars, false);
        return count < 0 ? Optional.empty() : Optional.of(CharBuffer.wrap(chars, 0, count));
    }

    private static Optional<CharBuffer> utf16(byte[] bytes, int from, boolean bigEndian) {
        if ((bytes.length - from) % 2 != 0) {
            return Optional.empty();
        }
        char[] chars = new char[(bytes.length - from) / 2];
        for (int i = 0; i < chars.length; i++) {
            int hi = bytes[from + 2 * i] & 0xFF;
            int lo = bytes[from + 2 * i + 1] & 0xFF;
            chars[i] = (char) (bigEndian ? hi << 8 | lo : lo << 8 | hi);
        }
        return wellFormed(chars, chars.length)
                ? Optional.of(CharBuffer.wrap(chars))
                : Optional.empty();
    }

    private static Optional<CharBuffer> utf32(byte[] bytes, int from, boolean bigEndian) {
        if ((bytes.length - from) % 4 != 0) {
            return Optional.empty();
        }
        int units = (bytes.length - from) / 4;
        char[] chars = new char[units * 2];
        int count = 0;
        for (int i = from; i < bytes.length; i += 4) {
            int codePoint =
                    bigEndian
                            ? (bytes[i] & 0xFF) << 24
                                    | (bytes[i + 1] & 0xFF) << 16
                                    | (bytes[i + 2] & 0xFF) << 8
                                    | (bytes[i + 3] & 0xFF)
                            : (bytes[i + 3] & 0xFF) << 24
                                    | (bytes[i + 2] & 0xFF) << 16
                                    | (bytes[i + 1] & 0xFF) << 8
                                    | (bytes[i] & 0xFF);
            if (codePoint < 0
                    || codePoint > Character.MAX_CODE_POINT
                    || (codePoint >= Character.MIN_SURROGATE
                            && codePoint <= Character.MAX_SURROGATE)) {
                return Optional.empty();
            }
            count += Character.toChars(codePoint, chars, count);
        }
        return Optional.of(CharBuffer.wrap(chars, 0, count));
    }

    private static boolean wellFormed(char[] chars, int length) {
        for (int i = 0; i < length; i++) {
            char c = chars[i];
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c)
                        && i + 1 < length
                        && Character.isLowSurrogate(chars[i + 1])) {
                    i++;
                } else {
                    return false;
                }
            }
        }
        return true;
    }
}
