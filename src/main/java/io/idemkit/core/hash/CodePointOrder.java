package io.idemkit.core.hash;

import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;

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

    /**
     * Sorts items by a string key in code point order. The sort is stable: items with equal keys
     * keep their order.
     *
     * @param items the items to sort in place
     * @param key the key of an item
     */
    static <T> void sort(T[] items, Function<? super T, String> key) {
        for (T item : items) {
            if (hasSurrogateOrAbove(key.apply(item))) {
                Arrays.sort(items, (a, b) -> compare(key.apply(a), key.apply(b)));
                return;
            }
        }
        // Below U+D800, UTF-16 order is code point order, and String.compareTo is intrinsic.
        Arrays.sort(items, Comparator.comparing(key));
    }

    private static boolean hasSurrogateOrAbove(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= Character.MIN_SURROGATE) {
                return true;
            }
        }
        return false;
    }

    private static int fixUp(char c) {
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
}
