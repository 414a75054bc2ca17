package io.idemkit.core.hash;

import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.CharArrayReader;
import java.nio.CharBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The canonical form of a JSON body (contract C6.9). Mirrors the reference's {@code
 * json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"),
 * ensure_ascii=False).encode("utf-8")}:
 *
 * <ul>
 *   <li>the text is found as {@code json.loads} finds it in bytes (see {@link JsonText});
 *   <li>a duplicate key keeps its last value; keys sort by code point;
 *   <li>strings are written as Python's encoder writes them: {@code \"}, {@code \\}, {@code \n},
 *       {@code \r}, {@code \t}, {@code \b}, {@code \f}, other characters below U+0020 as <code>
 *       &#92;u00xx</code> in lower-case hex, everything else (DEL and non-ASCII included) as is, in
 *       UTF-8;
 *   <li>a number with neither fraction nor exponent is an integer, written exactly; any other is a
 *       double, written as Python's {@code repr(float)} (see {@link PythonFloatRepr}), with {@code
 *       Infinity} and {@code -Infinity} for overflow.
 * </ul>
 *
 * <p>Where the reference gives no output, this class returns empty, so that the body is
 * fingerprinted raw: invalid JSON; an integer of more than 4300 digits (Python 3.11 refuses to read
 * it, and the reference falls back to the raw bytes); nesting deeper than {@value #MAX_DEPTH}
 * (Python stops near 1000 with a {@code RecursionError}); a lone surrogate, which Python cannot
 * encode. Python also accepts the literals {@code NaN}, {@code Infinity} and {@code -Infinity},
 * which JSON does not allow and JSON-P rejects: such a body is fingerprinted raw here, where the
 * reference would canonicalize it.
 *
 * <p>Thread-safe. It needs a JSON-P 2.1 implementation at run time.
 */
public final class CanonicalJson {

    /** Containers nested deeper than this are not canonicalized. */
    static final int MAX_DEPTH = 1000;

    /** Python 3.11's {@code sys.get_int_max_str_digits()} default. */
    static final int MAX_INT_DIGITS = 4300;

    private static final byte[] HEX_DIGITS = {
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'
    };

    private CanonicalJson() {}

    /**
     * Canonicalizes a JSON body. Never throws on bad input (contract C6.9).
     *
     * @param body the body bytes, in any encoding that {@code json.loads} detects
     * @return the canonical UTF-8 bytes, the {@code body} array itself when it is already in
     *     canonical form, or empty when the reference would not canonicalize the body (see the
     *     class comment), so that the caller falls back to the raw bytes
     */
    public static Optional<byte[]> canonicalize(byte[] body) {
        Objects.requireNonNull(body, "body");
        // Compact JSON with sorted keys is common, and is its own canonical form: one scan
        // instead of decoding, parsing, sorting and writing it again.
        return AlreadyCanonicalJson.test(body) ? Optional.of(body) : byParsing(body);
    }

    /**
     * The canonicalization itself, without the shortcut for a body already in canonical form.
     *
     * @param body the body bytes
     * @return as {@link #canonicalize}, always a new array
     */
    static Optional<byte[]> byParsing(byte[] body) {
        return parse(body).flatMap(root -> write(root, body.length + 16));
    }

    /**
     * Reads a body as {@link #canonicalize} does, into values that {@link #write} writes and {@link
     * #member} looks into: an object, an array, a string, or a number or literal in its canonical
     * text.
     *
     * @param body the body bytes
     * @return the body's value; empty where the reference would not canonicalize the body
     */
    static Optional<Object> parse(byte[] body) {
        Optional<CharBuffer> text = JsonText.decode(body);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        CharBuffer chars = text.get();
        try (JsonParser parser =
                Parsers.FACTORY.createParser(
                        new CharArrayReader(chars.array(), 0, chars.limit()))) {
            if (!parser.hasNext()) {
                return Optional.empty();
            }
            Object root = read(parser, parser.next(), 0);
            return parser.hasNext() ? Optional.empty() : Optional.of(root);
        } catch (RuntimeException e) {
            // JSON-P reports bad input with unchecked exceptions; all mean "not canonical JSON".
            return Optional.empty();
        }
    }

    /**
     * @param value a value from {@link #parse}, or one {@link #object} built
     * @param capacity the expected size of the output
     * @return its canonical UTF-8 bytes; empty when it holds a lone surrogate, which the reference
     *     cannot encode
     */
    static Optional<byte[]> write(Object value, int capacity) {
        Output out = new Output(Math.max(capacity, 16));
        try {
            write(value, out);
        } catch (NotCanonical e) {
            return Optional.empty();
        }
        return Optional.of(out.toByteArray());
    }

    /**
     * @param value a value from {@link #parse}
     * @return whether it is a JSON object
     */
    static boolean isObject(Object value) {
        return value instanceof Member[];
    }

    /**
     * @param value a value from {@link #parse}
     * @param name a member name
     * @return the member's value, the last one where the name repeats (as {@code json.loads} keeps
     *     it); empty when {@code value} is no object or has no such member
     */
    static Optional<Object> member(Object value, String name) {
        if (value instanceof Member[] members) {
            for (int i = members.length - 1; i >= 0; i--) {
                if (members[i].key().equals(name)) {
                    return Optional.of(members[i].value());
                }
            }
        }
        return Optional.empty();
    }

    /**
     * @param members names and values from {@link #parse}, or {@code null} for JSON's {@code null}
     * @return the object of those members, for {@link #write}
     */
    static Object object(Map<String, Object> members) {
        List<Member> list = new ArrayList<>(members.size());
        members.forEach((k, v) -> list.add(new Member(k, v == null ? NULL_LITERAL : v)));
        return list.toArray(new Member[0]);
    }

    /** The factory is looked up once: {@code Json.createParser} does a service lookup per call. */
    private static final class Parsers {
        static final JsonParserFactory FACTORY =
                JsonProvider.provider().createParserFactory(Map.of());
    }

    /** Raised for input that parses but that the reference would not canonicalize. */
    private static final class NotCanonical extends RuntimeException {
        static final NotCanonical INSTANCE = new NotCanonical();

        private NotCanonical() {
            super("not canonicalizable", null, false, false);
        }
    }

    /** A number or literal, already in its canonical (ASCII) text. */
    private record Literal(String text) {}

    private static final Literal TRUE_LITERAL = new Literal("true");
    private static final Literal FALSE_LITERAL = new Literal("false");
    private static final Literal NULL_LITERAL = new Literal("null");

    /** An object member, kept in arrival order until the object is written. */
    private record Member(String key, Object value) {}

    private static Object read(JsonParser parser, JsonParser.Event event, int depth) {
        switch (event) {
            case START_OBJECT:
                {
                    checkDepth(depth);
                    List<Member> members = new ArrayList<>();
                    JsonParser.Event next;
                    while ((next = parser.next()) == JsonParser.Event.KEY_NAME) {
                        String key = parser.getString();
                        members.add(new Member(key, read(parser, parser.next(), depth + 1)));
                    }
                    if (next != JsonParser.Event.END_OBJECT) {
                        throw NotCanonical.INSTANCE;
                    }
                    return members.toArray(new Member[0]);
                }
            case START_ARRAY:
                {
                    checkDepth(depth);
                    List<Object> elements = new ArrayList<>();
                    JsonParser.Event next;
                    while ((next = parser.next()) != JsonParser.Event.END_ARRAY) {
                        elements.add(read(parser, next, depth + 1));
                    }
                    return elements;
                }
            case VALUE_STRING:
                return parser.getString();
            case VALUE_NUMBER:
                // Parsson returns the number's lexeme here, which tells an integer from a float
                // as Python's scanner does. The lexeme is checked against the JSON grammar, so an
                // implementation that returned some other text falls back to the raw bytes.
                return number(parser.getString());
            case VALUE_TRUE:
                return TRUE_LITERAL;
            case VALUE_FALSE:
                return FALSE_LITERAL;
            case VALUE_NULL:
                return NULL_LITERAL;
            default:
                throw NotCanonical.INSTANCE;
        }
    }

    private static void checkDepth(int depth) {
        if (depth >= MAX_DEPTH) {
            throw NotCanonical.INSTANCE;
        }
    }

    private static Literal number(String lexeme) {
        int length = lexeme.length();
        int i = 0;
        if (i < length && lexeme.charAt(i) == '-') {
            i++;
        }
        int intStart = i;
        while (i < length && isDigit(lexeme.charAt(i))) {
            i++;
        }
        int intDigits = i - intStart;
        if (intDigits == 0 || (intDigits > 1 && lexeme.charAt(intStart) == '0')) {
            throw NotCanonical.INSTANCE;
        }
        boolean isFloat = false;
        if (i < length && lexeme.charAt(i) == '.') {
            isFloat = true;
            i = requireDigits(lexeme, i + 1);
        }
        if (i < length && (lexeme.charAt(i) == 'e' || lexeme.charAt(i) == 'E')) {
            isFloat = true;
            i++;
            if (i < length && (lexeme.charAt(i) == '+' || lexeme.charAt(i) == '-')) {
                i++;
            }
            i = requireDigits(lexeme, i);
        }
        if (i != length) {
            throw NotCanonical.INSTANCE;
        }
        if (isFloat) {
            return new Literal(floatText(lexeme));
        }
        if (intDigits > MAX_INT_DIGITS) {
            throw NotCanonical.INSTANCE;
        }
        // Python reads "-0" as the integer 0.
        return new Literal(lexeme.equals("-0") ? "0" : lexeme);
    }

    private static int requireDigits(String lexeme, int from) {
        int i = from;
        while (i < lexeme.length() && isDigit(lexeme.charAt(i))) {
            i++;
        }
        if (i == from) {
            throw NotCanonical.INSTANCE;
        }
        return i;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String floatText(String lexeme) {
        double value = Double.parseDouble(lexeme);
        if (value == Double.POSITIVE_INFINITY) {
            return "Infinity";
        }
        if (value == Double.NEGATIVE_INFINITY) {
            return "-Infinity";
        }
        return PythonFloatRepr.format(value, lexeme);
    }

    @SuppressWarnings("unchecked")
    private static void write(Object value, Output out) {
        if (value instanceof Literal literal) {
            out.writeAscii(literal.text());
        } else if (value instanceof String string) {
            writeString(string, out);
        } else if (value instanceof Member[] members) {
            // A stable sort keeps duplicates in arrival order: the last of each run wins.
            CodePointOrder.sort(members, Member::key);
            out.write('{');
            boolean first = true;
            for (int i = 0; i < members.length; i++) {
                if (i + 1 < members.length && members[i + 1].key().equals(members[i].key())) {
                    continue;
                }
                if (!first) {
                    out.write(',');
                }
                first = false;
                writeString(members[i].key(), out);
                out.write(':');
                write(members[i].value(), out);
            }
            out.write('}');
        } else {
            out.write('[');
            boolean first = true;
            for (Object element : (List<Object>) value) {
                if (!first) {
                    out.write(',');
                }
                first = false;
                write(element, out);
            }
            out.write(']');
        }
    }

    private static void writeString(String s, Output out) {
        out.write('"');
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80) {
                if (c == '"' || c == '\\') {
                    out.write('\\');
                }
                out.write(c);
            } else if (c < 0x20) {
                writeControl(c, out);
            } else if (c < 0x800) {
                out.write(0xC0 | c >>> 6);
                out.write(0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                out.write(0xE0 | c >>> 12);
                out.write(0x80 | c >>> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < length
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, s.charAt(++i));
                out.write(0xF0 | codePoint >>> 18);
                out.write(0x80 | codePoint >>> 12 & 0x3F);
                out.write(0x80 | codePoint >>> 6 & 0x3F);
                out.write(0x80 | codePoint & 0x3F);
            } else {
                // The reference raises UnicodeEncodeError here: there is no canonical form.
                throw NotCanonical.INSTANCE;
            }
        }
        out.write('"');
    }

    private static void writeControl(char c, Output out) {
        out.write('\\');
        switch (c) {
            case '\n' -> out.write('n');
            case '\r' -> out.write('r');
            case '\t' -> out.write('t');
            case '\b' -> out.write('b');
            case '\f' -> out.write('f');
            default -> {
                out.write('u');
                out.write('0');
                out.write('0');
                out.write(HEX_DIGITS[c >>> 4]);
                out.write(HEX_DIGITS[c & 0x0F]);
            }
        }
    }

    /** A growable byte buffer without the locking of {@code ByteArrayOutputStream}. */
    private static final class Output {
        private byte[] bytes;
        private int size;

        Output(int capacity) {
            bytes = new byte[capacity];
        }

        void write(int b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, bytes.length * 2);
            }
            bytes[size++] = (byte) b;
        }

        void writeAscii(String s) {
            int length = s.length();
            if (size + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + length));
            }
            for (int i = 0; i < length; i++) {
                bytes[size++] = (byte) s.charAt(i);
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }
    }
}
