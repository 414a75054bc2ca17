package io.idemkit.core.hash;

import java.util.ArrayList;
import java.util.List;

/**
 * The canonical form of a query string or an {@code application/x-www-form-urlencoded} body
 * (contract C6.9): decoded once, sorted by name then value, and encoded again. Mirrors Python's
 * {@code urlencode(sorted(parse_qsl(q, keep_blank_values=True)))}, as the reference's {@code
 * canonicalize_query} and form-body branch do:
 *
 * <ul>
 *   <li>fields are split on {@code &} only; empty fields are skipped; a field without {@code =} has
 *       the value {@code ""}; a field splits at its first {@code =};
 *   <li>{@code +} means a space; percent-escapes decode as UTF-8 with {@code errors='replace'}
 *       within each run of ASCII characters, non-ASCII characters are kept as they are, and an
 *       escape that is not {@code %} plus two hex digits stays literal;
 *   <li>pairs sort by name, then value, in code point order;
 *   <li>encoding is that of {@code quote_plus}: a space becomes {@code +}, {@code A-Z a-z 0-9 _ . -
 *       ~} stay bare, and every other UTF-8 byte becomes {@code %XX} in upper-case hex.
 * </ul>
 *
 * <p>Thread-safe and stateless.
 */
public final class CanonicalQuery {

    private static final char[] HEX_DIGITS = "0123456789ABCDEF".toCharArray();

    private CanonicalQuery() {}

    /**
     * Canonicalizes a raw query or form body.
     *
     * @param rawQuery the text after {@code ?}, not decoded, or a decoded form body; null and empty
     *     mean no query
     * @return the canonical form, ASCII only; {@code ""} for null, empty or only empty fields
     * @throws IllegalArgumentException when the text holds a lone surrogate, which Python cannot
     *     encode either (it raises {@code UnicodeEncodeError})
     */
    public static String canonicalize(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return "";
        }
        List<Param> params = parse(rawQuery);
        params.sort(CanonicalQuery::compare);
        StringBuilder out = new StringBuilder(rawQuery.length() + 16);
        for (Param param : params) {
            if (out.length() > 0) {
                out.append('&');
            }
            quotePlus(param.name(), out);
            out.append('=');
            quotePlus(param.value(), out);
        }
        return out.toString();
    }

    private record Param(String name, String value) {}

    private static int compare(Param a, Param b) {
        int byName = CodePointOrder.compare(a.name(), b.name());
        return byName != 0 ? byName : CodePointOrder.compare(a.value(), b.value());
    }

    private static List<Param> parse(String query) {
        List<Param> params = new ArrayList<>();
        Unquoter unquoter = new Unquoter(query.length());
        int length = query.length();
        int start = 0;
        while (start <= length) {
            int end = query.indexOf('&', start);
            if (end < 0) {
                end = length;
            }
            if (end > start) {
                int equals = indexOf(query, '=', start, end);
                if (equals < 0) {
                    params.add(new Param(unquoter.unquote(query, start, end), ""));
                } else {
                    params.add(
                            new Param(
                                    unquoter.unquote(query, start, equals),
                                    unquoter.unquote(query, equals + 1, end)));
                }
            }
            start = end + 1;
        }
        return params;
    }

    private static int indexOf(String s, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** Python's {@code unquote(s.replace('+', ' '))}, with buffers reused across one query. */
    private static final class Unquoter {
        private final byte[] run;
        private final char[] decoded;

        Unquoter(int capacity) {
            run = new byte[capacity];
            decoded = new char[capacity];
        }

        String unquote(String s, int from, int to) {
            if (!needsWork(s, from, to)) {
                return s.substring(from, to);
            }
            StringBuilder out = new StringBuilder(to - from);
            int runLength = 0;
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    // Python decodes escapes per ASCII run and leaves other characters alone.
                    runLength = flush(runLength, out);
                    out.append(c);
                } else if (c == '+') {
                    run[runLength++] = ' ';
                } else if (c == '%'
                        && i + 2 < to
                        && hexValue(s.charAt(i + 1)) >= 0
                        && hexValue(s.charAt(i + 2)) >= 0) {
                    run[runLength++] =
                            (byte) (hexValue(s.charAt(i + 1)) << 4 | hexValue(s.charAt(i + 2)));
                    i += 2;
                } else {
                    run[runLength++] = (byte) c;
                }
            }
            flush(runLength, out);
            return out.toString();
        }

        private int flush(int runLength, StringBuilder out) {
            if (runLength > 0) {
                out.append(decoded, 0, Utf8.decode(run, 0, runLength, decoded, true));
            }
            return 0;
        }

        private static boolean needsWork(String s, int from, int to) {
            for (int i = from; i < to; i++) {
                char c = s.charAt(i);
                if (c == '+' || c == '%') {
                    return true;
                }
            }
            return false;
        }
    }

    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }

    private static void quotePlus(String s, StringBuilder out) {
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (isUnreserved(c)) {
                out.append(c);
            } else if (c == ' ') {
                out.append('+');
            } else if (c < 0x80) {
                appendEscape(c, out);
            } else if (c < 0x800) {
                appendEscape(0xC0 | c >>> 6, out);
                appendEscape(0x80 | c & 0x3F, out);
            } else if (!Character.isSurrogate(c)) {
                appendEscape(0xE0 | c >>> 12, out);
                appendEscape(0x80 | c >>> 6 & 0x3F, out);
                appendEscape(0x80 | c & 0x3F, out);
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < length
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, s.charAt(++i));
                appendEscape(0xF0 | codePoint >>> 18, out);
                appendEscape(0x80 | codePoint >>> 12 & 0x3F, out);
                appendEscape(0x80 | codePoint >>> 6 & 0x3F, out);
                appendEscape(0x80 | codePoint & 0x3F, out);
            } else {
                throw new IllegalArgumentException(
                        "not well-formed UTF-16: a lone surrogate in the query");
            }
        }
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_'
                || c == '.'
                || c == '-'
                || c == '~';
    }

    private static void appendEscape(int b, StringBuilder out) {
        out.append('%').append(HEX_DIGITS[b >>> 4]).append(HEX_DIGITS[b & 0x0F]);
    }
}
