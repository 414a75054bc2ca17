package io.idemkit.client;

import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.core.MediaType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads the {@code type} of an RFC 9457 problem body, which tells a server's answers of one status
 * apart: idemkit's key reuse ({@code urn:idemkit:payload-mismatch}) from a validation 422, its
 * in-progress 409 ({@code urn:idemkit:in-progress}) from any other conflict (C6.4). The body is
 * peeked, never consumed: what was read is put back in front of the rest, for the application.
 * Stateless.
 */
final class ProblemBodies {

    /** A problem's {@code type} comes first or early; a longer body is not read further. */
    static final int PEEK_BYTES = 8 * 1024;

    private ProblemBodies() {}

    /**
     * @return the {@code type} of the response's problem body, when it is a 4xx with a JSON body
     *     ({@code application/problem+json} or {@code application/json}) that has one at its top
     *     level; {@code null} otherwise. The response's entity stays readable, whole.
     */
    static String peekType(ClientResponseContext response) {
        int status = response.getStatus();
        MediaType type = response.getMediaType();
        if (status < 400
                || status > 499
                || type == null
                || !"application".equalsIgnoreCase(type.getType())
                || !(type.getSubtype().equalsIgnoreCase("problem+json")
                        || type.getSubtype().equalsIgnoreCase("json"))) {
            return null;
        }
        InputStream body = response.getEntityStream();
        if (body == null) {
            return null;
        }
        byte[] head;
        try {
            head = body.readNBytes(PEEK_BYTES);
        } catch (IOException e) {
            // The application reads the same failure when it reads the body.
            return null;
        }
        response.setEntityStream(new SequenceInputStream(new ByteArrayInputStream(head), body));
        return topLevelType(new String(head, StandardCharsets.UTF_8));
    }

    /**
     * @param json a JSON text, perhaps cut short
     * @return the string value of its top-level object's {@code type} member; {@code null} when it
     *     is not an object, has none, or is cut before it
     */
    static String topLevelType(String json) {
        Scanner in = new Scanner(json);
        in.space();
        if (!in.take('{')) {
            return null;
        }
        while (true) {
            in.space();
            String name = in.string();
            in.space();
            if (name == null || !in.take(':')) {
                return null;
            }
            in.space();
            if (name.equals("type")) {
                return in.string();
            }
            if (!in.skipValue()) {
                return null;
            }
            in.space();
            if (!in.take(',')) {
                return null;
            }
        }
    }

    /** Just enough of JSON to walk an object's members; every failure is a {@code null}. */
    private static final class Scanner {
        private final String s;
        private int at;

        Scanner(String s) {
            this.s = s;
        }

        void space() {
            while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) {
                at++;
            }
        }

        boolean take(char c) {
            if (at < s.length() && s.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        /** A string, unescaped; {@code null} when none is here or it is cut. */
        String string() {
            if (!take('"')) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            while (at < s.length()) {
                char c = s.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (at >= s.length()) {
                    return null;
                }
                char e = s.charAt(at++);
                switch (e) {
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (at + 4 > s.length()) {
                            return null;
                        }
                        try {
                            out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                        } catch (NumberFormatException bad) {
                            return null;
                        }
                        at += 4;
                    }
                    default -> out.append(e);
                }
            }
            return null;
        }

        /** Skips one value: a string, or anything up to the end of its nesting. */
        boolean skipValue() {
            if (at < s.length() && s.charAt(at) == '"') {
                return string() != null;
            }
            int depth = 0;
            while (at < s.length()) {
                char c = s.charAt(at);
                if (c == '"') {
                    if (string() == null) {
                        return false;
                    }
                    continue;
                }
                if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    if (depth == 0) {
                        return true;
                    }
                    depth--;
                } else if (c == ',' && depth == 0) {
                    return true;
                }
                at++;
                if (depth == 0 && (c == '}' || c == ']')) {
                    return true;
                }
            }
            return false;
        }
    }
}
