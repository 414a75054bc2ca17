package io.idemkit.core.hash;

/**
 * The characters Python's {@code str.isspace} accepts, which {@code str.strip()} removes. They
 * differ from {@link Character#isWhitespace}: Python includes U+0085, U+00A0, U+2007 and U+202F.
 */
final class PythonWhitespace {

    private PythonWhitespace() {}

    /**
     * Tells whether Python's {@code str.strip()} removes a character.
     *
     * @param c a character; surrogates are never white space
     * @return true for white space as Python 3.11 (Unicode 14) defines it
     */
    static boolean is(char c) {
        if (c <= 0x20) {
            return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
        }
        if (c < 0x85) {
            return false;
        }
        return c == 0x85
                || c == 0xA0
                || c == 0x1680
                || (c >= 0x2000 && c <= 0x200A)
                || c == 0x2028
                || c == 0x2029
                || c == 0x202F
                || c == 0x205F
                || c == 0x3000;
    }
}
