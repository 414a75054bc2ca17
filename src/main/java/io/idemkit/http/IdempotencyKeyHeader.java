package io.idemkit.http;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.IdempotencyWire;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Parses the {@code Idempotency-Key} request header (contract C6.1), and checks a key an extractor
 * took from the request by the same rules.
 *
 * <ul>
 *   <li>The quoted form (an RFC 8941 string, {@code "abc"}, as the IETF draft defines the header:
 *       printable ASCII, with {@code \"} and {@code \\} the only escapes) and the bare form ({@code
 *       abc}, which may also be UTF-8) are the same key.
 *   <li>The key is 1 to {@value #MAX_BYTES} bytes of UTF-8, counted on the wire.
 *   <li>An empty key, a longer one, bytes that are not UTF-8, control characters (C0, DEL and C1:
 *       U+0000 to U+001F and U+007F to U+009F), a broken quoted form, and a header sent more than
 *       once are refused.
 * </ul>
 *
 * <p>Servlet containers hand header values over as ISO-8859-1, one character per byte; the bytes
 * are recovered from that and decoded as UTF-8, so that a multi-byte key is hashed as the client
 * sent it. Messages never contain the key. Thread-safe and stateless.
 */
final class IdempotencyKeyHeader {

    /** The longest key, in bytes of UTF-8. */
    static final int MAX_BYTES = 255;

    private IdempotencyKeyHeader() {}

    /**
     * @param values every value of the header in the request, as the container decoded them, or
     *     {@code null} when it is absent
     * @return the key, or empty when the request carries no key header
     * @throws IdempotencyKeyMissingException saying which rule the header broke
     */
    static Optional<String> parse(List<String> values) {
        if (values == null || values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw refused("was sent " + values.size() + " times; send it once");
        }
        String raw = trim(values.get(0));
        if (!raw.isEmpty() && raw.charAt(0) == '"') {
            String key = unquote(raw);
            if (key.isEmpty()) {
                throw refused("is empty");
            }
            if (key.length() > MAX_BYTES) {
                throw refused("is " + key.length() + " bytes long; the limit is " + MAX_BYTES);
            }
            return Optional.of(key);
        }
        if (isPrintableAscii(raw)) {
            // The common key (a UUID): its bytes are its characters, and nothing is to decode.
            return Optional.of(raw);
        }
        byte[] wire = raw.getBytes(StandardCharsets.ISO_8859_1);
        if (wire.length == 0) {
            throw refused("is empty");
        }
        if (wire.length > MAX_BYTES) {
            throw refused("is " + wire.length + " bytes long; the limit is " + MAX_BYTES);
        }
        String key;
        try {
            key =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(wire))
                            .toString();
        } catch (CharacterCodingException e) {
            throw refused("is not valid UTF-8");
        }
        for (int i = 0; i < key.length(); i++) {
            // C0, DEL and C1 (U+0080 to U+009F), all one char each: a C1 character arrives as
            // the two bytes C2 80 to C2 9F, valid UTF-8, so it is found after decoding (C6.1).
            if (Character.isISOControl(key.charAt(i))) {
                throw refused("contains a control character");
            }
        }
        return Optional.of(key);
    }

    /**
     * Checks a key that an extractor took from the request, by the header's rules; nothing is
     * unquoted or trimmed.
     *
     * @param key the key
     * @return {@code key}
     * @throws IdempotencyKeyMissingException saying which rule it broke, without the key
     */
    static String check(String key) {
        if (isPrintableAscii(key)) {
            return key;
        }
        CharsetEncoder utf8 =
                StandardCharsets.UTF_8
                        .newEncoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT);
        int bytes;
        try {
            bytes = utf8.encode(CharBuffer.wrap(key)).remaining();
        } catch (CharacterCodingException e) {
            throw refusedExtracted("is not valid Unicode (a lone surrogate)");
        }
        if (bytes == 0) {
            throw refusedExtracted("is empty");
        }
        if (bytes > MAX_BYTES) {
            throw refusedExtracted("is " + bytes + " bytes long; the limit is " + MAX_BYTES);
        }
        for (int i = 0; i < key.length(); i++) {
            if (Character.isISOControl(key.charAt(i))) {
                throw refusedExtracted("contains a control character");
            }
        }
        return key;
    }

    /** Whether a key is 1 to {@link #MAX_BYTES} characters of printable ASCII or space. */
    private static boolean isPrintableAscii(String key) {
        int length = key.length();
        if (length == 0 || length > MAX_BYTES) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads an RFC 8941 string (section 3.3.3, parsed as in 4.2.5): printable ASCII between double
     * quotes, with {@code \"} and {@code \\} the only escapes, and nothing after the closing quote.
     * A servlet container hands each byte over as one character, so a byte past ASCII is a
     * character past {@code U+007E} here.
     */
    private static String unquote(String quoted) {
        StringBuilder out = new StringBuilder(quoted.length());
        for (int i = 1; i < quoted.length(); i++) {
            char c = quoted.charAt(i);
            if (c == '\\') {
                if (i + 1 >= quoted.length()) {
                    throw refused("ends its quoted string with a lone backslash");
                }
                char next = quoted.charAt(++i);
                if (next != '"' && next != '\\') {
                    throw refused("escapes a character other than \\\" or \\\\");
                }
                out.append(next);
            } else if (c == '"') {
                if (i != quoted.length() - 1) {
                    throw refused("has text after its quoted string");
                }
                return out.toString();
            } else if (c < 0x20 || c == 0x7f) {
                throw refused("contains a control character");
            } else if (c > 0x7e) {
                throw refused(
                        "has a character beyond printable ASCII inside its quoted string (an"
                                + " RFC 8941 string holds printable ASCII only: no control"
                                + " character, no UTF-8); send such a key bare");
            } else {
                out.append(c);
            }
        }
        throw refused("starts a quoted string that does not end");
    }

    /** Optional white space around a field value is not part of it (RFC 9110 5.5). */
    private static String trim(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isOws(value.charAt(start))) {
            start++;
        }
        while (end > start && isOws(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    private static IdempotencyKeyMissingException refusedExtracted(String why) {
        return new IdempotencyKeyMissingException(
                "The idempotency key this endpoint takes from the request "
                        + why
                        + ". Send one key of 1 to "
                        + MAX_BYTES
                        + " bytes of UTF-8 where the endpoint expects it.");
    }

    private static IdempotencyKeyMissingException refused(String why) {
        return new IdempotencyKeyMissingException(
                "The "
                        + IdempotencyWire.KEY_HEADER
                        + " header "
                        + why
                        + ". Send one key of 1 to "
                        + MAX_BYTES
                        + " bytes of UTF-8 bare, or of printable ASCII as a quoted string; a UUID"
                        + " is a good choice.");
    }
}
