package io.idemkit.core.hash;

/**
 * Orders strings by Unicode code point, as Python compares {@code str} values. {@link
 * String#compareTo} compares UTF-16 units instead, which puts supplementary characters (stored as
 * surrogates, 0xD800 to 0xDFFF) before U+E000 to U+FFFF.
 */
final class CodePointOrder {

    private CodePointOrder() {}

    /**
     * Compares two strings by code point.
     *
     * @param a a string
     * @param b a string
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    static int compare(String a, String b) {
        int length = Math.min(a.length(), b.length());
        for (int i = 0; i < length; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                if (x >= Character.MIN_SURROGATE && y >= Character.MIN_SURROGATE) {
                    // Move the surrogates above U+E000..U+FFFF, where their code points are.
                    return fixUp(x) - fixUp(y);
                }
                return x - y;
            }
        }
        return a.length() - b.length();
    }

    private static int fixUp(char c) {
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
}
