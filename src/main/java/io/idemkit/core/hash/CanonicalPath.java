package io.idemkit.core.hash;

import java.util.Objects;

/**
 * The canonical form of a raw (still percent-encoded) URL path, for fingerprints and effective keys
 * (contract C6.9). Mirrors {@code canonicalize_path} of the Python reference: runs of slashes
 * collapse to one, a trailing slash is dropped except for the root {@code /}, and each
 * percent-escape {@code %hh} gets upper-case hex digits. The path is never decoded, so {@code %2f}
 * stays an escape (it becomes {@code %2F}) and is not a separator.
 *
 * <p>Thread-safe and stateless.
 */
public final class CanonicalPath {

    private CanonicalPath() {}

    /**
     * Canonicalizes a raw path.
     *
     * @param rawPath the path as sent, not decoded; any string, empty included
     * @return the canonical path; the argument itself when it is already canonical
     */
    public static String canonicalize(String rawPath) {
        Objects.requireNonNull(rawPath, "rawPath");
        if (isCanonical(rawPath)) {
            return rawPath;
        }
        int length = rawPath.length();
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            char c = rawPath.charAt(i);
            if (c == '/' && out.length() > 0 && out.charAt(out.length() - 1) == '/') {
                continue;
            }
            if (c == '%' && isEscape(rawPath, i)) {
                out.append('%')
                        .append(upperHex(rawPath.charAt(i + 1)))
                        .append(upperHex(rawPath.charAt(i + 2)));
                i += 2;
                continue;
            }
            out.append(c);
        }
        int last = out.length() - 1;
        if (last > 0 && out.charAt(last) == '/') {
            out.setLength(last);
        }
        return out.toString();
    }

    private static boolean isCanonical(String path) {
        int length = path.length();
        if (length > 1 && path.charAt(length - 1) == '/') {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = path.charAt(i);
            if (c == '/' && i + 1 < length && path.charAt(i + 1) == '/') {
                return false;
            }
            if (c == '%'
                    && isEscape(path, i)
                    && (isLowerHex(path.charAt(i + 1)) || isLowerHex(path.charAt(i + 2)))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isEscape(String s, int percent) {
        return percent + 2 < s.length()
                && isHex(s.charAt(percent + 1))
                && isHex(s.charAt(percent + 2));
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || isLowerHex(c);
    }

    private static boolean isLowerHex(char c) {
        return c >= 'a' && c <= 'f';
    }

    private static char upperHex(char c) {
        return isLowerHex(c) ? (char) (c - ('a' - 'A')) : c;
    }
}
