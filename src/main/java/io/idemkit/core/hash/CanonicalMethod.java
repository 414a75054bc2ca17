package io.idemkit.core.hash;

import java.util.Locale;

/**
 * The HTTP method as the reference hashes it: {@code method.upper().encode("ascii")}.
 *
 * <p>{@link String#toUpperCase(Locale)} with {@link Locale#ROOT} applies the same full Unicode case
 * mapping as Python's {@code str.upper} (so {@code ß} becomes {@code SS}); a method whose upper
 * case is not ASCII is refused, as Python refuses to encode it.
 */
final class CanonicalMethod {

    private CanonicalMethod() {}

    /**
     * Upper-cases a method name.
     *
     * @param method an HTTP method, such as {@code post}
     * @return the ASCII bytes of its upper case
     * @throws IllegalArgumentException when the upper case is not ASCII
     */
    static byte[] bytes(String method) {
        int length = method.length();
        byte[] ascii = new byte[length];
        for (int i = 0; i < length; i++) {
            char c = method.charAt(i);
            if (c >= 0x80) {
                return nonAscii(method);
            }
            ascii[i] = (byte) (c >= 'a' && c <= 'z' ? c - ('a' - 'A') : c);
        }
        return ascii;
    }

    private static byte[] nonAscii(String method) {
        String upper = method.toUpperCase(Locale.ROOT);
        byte[] ascii = new byte[upper.length()];
        for (int i = 0; i < ascii.length; i++) {
            char c = upper.charAt(i);
            if (c >= 0x80) {
                throw new IllegalArgumentException("the HTTP method is not ASCII when upper-cased");
            }
            ascii[i] = (byte) c;
        }
        return ascii;
    }
}
