package io.idemkit.core.hash;

/**
 * Recognizes a JSON body that is already in its canonical form ({@link CanonicalJson}), byte for
 * byte, in one pass over the bytes and without building a tree: the common case of a client that
 * sends compact JSON with sorted keys (JSON-B, for one, sorts properties lexicographically by
 * default). Such a body's canonical form is the body itself, so it is hashed as it is.
 *
 * <p>Conservative: it answers {@code true} only for a strict subset of JSON whose canonical form is
 * certainly the input, and {@code false} for anything else, which the full canonicalization then
 * decides. The subset:
 *
 * <ul>
 *   <li>an object or array at the root, so that {@code json.detect_encoding} reads the bytes as
 *       UTF-8, with no white space anywhere and nothing after the root;
 *   <li>object keys without escapes, in strictly increasing order of their UTF-8 bytes, which is
 *       code point order (a duplicate key is left to the full path, where the last one wins);
 *   <li>strings of well-formed UTF-8 (no encoded surrogate, no overlong form), whose only escapes
 *       are those the canonical writer itself produces: {@code \"}, {@code \\}, {@code \n}, {@code
 *       \r}, {@code \t}, {@code \b}, {@code \f}, and <code>&#92;u00xx</code> in lower-case hex for
 *       the other characters below U+0020;
 *   <li>integers in their shortest form, {@code -0} excepted (Python reads it as {@code 0}), of at
 *       most {@value CanonicalJson#MAX_INT_DIGITS} digits; no fraction and no exponent (a float's
 *       canonical text is Python's {@code repr});
 *   <li>{@code true}, {@code false}, {@code null};
 *   <li>nesting at most {@value #MAX_DEPTH} deep.
 * </ul>
 *
 * <p>Thread-safe and stateless.
 */
final class AlreadyCanonicalJson {

    /** Deeper nesting is left to the full canonicalization, which knows the reference's limit. */
    static final int MAX_DEPTH = 64;

    private static final int NO = -1;

    private AlreadyCanonicalJson() {}

    /**
     * @param body a request body
     * @return whether the body is certainly its own canonical form
     */
    static boolean test(byte[] body) {
        if (body.length == 0 || (body[0] != '{' && body[0] != '[')) {
            return false;
        }
        return value(body, 0, 0) == body.length;
    }

    /** Scans the value at {@code i}; returns the index after it, or {@link #NO}. */
    private static int value(byte[] b, int i, int depth) {
        if (i >= b.length) {
            return NO;
        }
        return switch (b[i]) {
            case '{' -> object(b, i, depth);
            case '[' -> array(b, i, depth);
            case '"' -> string(b, i, false);
            case 't' -> literal(b, i, "true");
            case 'f' -> literal(b, i, "false");
            case 'n' -> literal(b, i, "null");
            default -> integer(b, i);
        };
    }

    private static int object(byte[] b, int i, int depth) {
        if (depth >= MAX_DEPTH) {
            return NO;
        }
        i++;
        if (i < b.length && b[i] == '}') {
            return i + 1;
        }
        int previousKey = NO;
        int previousKeyEnd = NO;
        while (true) {
            if (i >= b.length || b[i] != '"') {
                return NO;
            }
            int key = i + 1;
            int next = string(b, i, true);
            if (next == NO) {
                return NO;
            }
            int keyEnd = next - 1; // the closing quote
            if (previousKey != NO && compare(b, previousKey, previousKeyEnd, key, keyEnd) >= 0) {
                return NO;
            }
            previousKey = key;
            previousKeyEnd = keyEnd;
            if (next >= b.length || b[next] != ':') {
                return NO;
            }
            i = value(b, next + 1, depth + 1);
            if (i == NO || i >= b.length) {
                return NO;
            }
            if (b[i] == '}') {
                return i + 1;
            }
            if (b[i] != ',') {
                return NO;
            }
            i++;
        }
    }

    private static int array(byte[] b, int i, int depth) {
        if (depth >= MAX_DEPTH) {
            return NO;
        }
        i++;
        if (i < b.length && b[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = value(b, i, depth + 1);
            if (i == NO || i >= b.length) {
                return NO;
            }
            if (b[i] == ']') {
                return i + 1;
            }
            if (b[i] != ',') {
                return NO;
            }
            i++;
        }
    }

    /** Unsigned lexicographic order of two byte ranges: code point order for UTF-8. */
    private static int compare(byte[] b, int from1, int to1, int from2, int to2) {
        int length1 = to1 - from1;
        int length2 = to2 - from2;
        int common = Math.min(length1, length2);
        for (int k = 0; k < common; k++) {
            int c = (b[from1 + k] & 0xFF) - (b[from2 + k] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        return length1 - length2;
    }

    /** Scans the string whose opening quote is at {@code i}; a key may hold no escape. */
    private static int string(byte[] b, int i, boolean key) {
        i++;
        while (i < b.length) {
            int c = b[i] & 0xFF;
            if (c == '"') {
                return i + 1;
            }
            if (c < 0x20) {
                return NO; // a raw control character is not JSON
            }
            if (c == '\\') {
                i = key ? NO : escape(b, i);
            } else if (c < 0x80) {
                i++;
            } else {
                i = utf8Sequence(b, i, c);
            }
            if (i == NO) {
                return NO;
            }
        }
        return NO;
    }

    /** The escapes the canonical writer produces, and only those. */
    private static int escape(byte[] b, int i) {
        if (i + 1 >= b.length) {
            return NO;
        }
        switch (b[i + 1]) {
            case '"', '\\', 'n', 'r', 't', 'b', 'f' -> {
                return i + 2;
            }
            case 'u' -> {
                // u00xx, for a control character without a short escape, in lower-case hex.
                if (i + 5 >= b.length || b[i + 2] != '0' || b[i + 3] != '0') {
                    return NO;
                }
                int high = b[i + 4];
                int low = hexDigit(b[i + 5]);
                if ((high != '0' && high != '1') || low < 0) {
                    return NO;
                }
                int c = (high - '0') << 4 | low;
                boolean hasShortForm =
                        c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f';
                return hasShortForm ? NO : i + 6;
            }
            default -> {
                return NO; // the solidus escape, for one, is written as a plain solidus
            }
        }
    }

    private static int hexDigit(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    /** One well-formed UTF-8 sequence of two to four bytes (RFC 3629), lead byte {@code c}. */
    private static int utf8Sequence(byte[] b, int i, int c) {
        int continuations;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            continuations = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            continuations = 2;
            if (c == 0xE0) {
                secondMin = 0xA0; // overlong
            } else if (c == 0xED) {
                secondMax = 0x9F; // an encoded surrogate
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            continuations = 3;
            if (c == 0xF0) {
                secondMin = 0x90; // overlong
            } else if (c == 0xF4) {
                secondMax = 0x8F; // above U+10FFFF
            }
        } else {
            return NO;
        }
        if (i + continuations >= b.length) {
            return NO;
        }
        int second = b[i + 1] & 0xFF;
        if (second < secondMin || second > secondMax) {
            return NO;
        }
        for (int k = 2; k <= continuations; k++) {
            if ((b[i + k] & 0xC0) != 0x80) {
                return NO;
            }
        }
        return i + 1 + continuations;
    }

    private static int literal(byte[] b, int i, String literal) {
        int length = literal.length();
        if (i + length > b.length) {
            return NO;
        }
        for (int k = 0; k < length; k++) {
            if (b[i + k] != literal.charAt(k)) {
                return NO;
            }
        }
        return i + length;
    }

    private static int integer(byte[] b, int i) {
        int start = i;
        if (b[i] == '-') {
            i++;
        }
        int digits = i;
        if (i >= b.length || !isDigit(b[i])) {
            return NO;
        }
        if (b[i] == '0') {
            i++;
            if (start != digits) {
                return NO; // -0 is written 0
            }
        } else {
            while (i < b.length && isDigit(b[i])) {
                i++;
            }
        }
        if (i - digits > CanonicalJson.MAX_INT_DIGITS) {
            return NO;
        }
        if (i < b.length && (b[i] == '.' || b[i] == 'e' || b[i] == 'E' || isDigit(b[i]))) {
            return NO; // a float, or a leading zero
        }
        return i;
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }
}
