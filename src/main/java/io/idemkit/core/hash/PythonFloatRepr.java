package io.idemkit.core.hash;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code repr(float)} for finite doubles: the shortest decimal that reads back as the same
 * double (the closest such one when several have that length), written in fixed notation when the
 * decimal exponent {@code e} is in {@code -4 <= e < 16} ({@code 0.0001}, {@code 1e+16}), else as
 * {@code d.ddde+XX} with at least two exponent digits ({@code 1.5e-05}). Integral fixed values end
 * in {@code .0}; {@code -0.0} keeps its sign.
 *
 * <p>Java 17's {@link Double#toString(double)} does not always give the shortest digits (fixed in
 * JDK 19), so the digits are searched here with {@link BigDecimal}.
 */
final class PythonFloatRepr {

    /**
     * Distinct decimals of at most 15 significant digits are farther apart than two adjacent normal
     * doubles, so at most one of them reads back as a given normal double: when one does, it is the
     * shortest and the closest.
     */
    private static final int UNIQUE_DIGITS = 15;

    /** A double needs at most 17 significant digits to read back exactly. */
    private static final int MAX_DIGITS = 17;

    private PythonFloatRepr() {}

    /**
     * Formats a finite double as Python's {@code repr} does.
     *
     * @param value a finite double
     * @return the repr text
     * @throws IllegalArgumentException for NaN or an infinity
     */
    static String format(double value) {
        return format(value, null);
    }

    /**
     * Formats a finite double read from a decimal, as Python's {@code repr(float(decimal))} does.
     * The decimal's own digits are used when they are provably the shortest, which saves the search
     * for most numbers seen in requests.
     *
     * @param value {@code Double.parseDouble(decimal)}, finite
     * @param decimal a JSON number ({@code -?int(.frac)?([eE][+-]?exp)?}) or null
     * @return the repr text
     * @throws IllegalArgumentException for NaN or an infinity
     */
    static String format(double value, String decimal) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("not a finite double");
        }
        boolean negative = (Double.doubleToRawLongBits(value) & Long.MIN_VALUE) != 0;
        if (value == 0.0) {
            return negative ? "-0.0" : "0.0";
        }
        double magnitude = Math.abs(value);
        boolean normal = magnitude >= Double.MIN_NORMAL;
        Digits digits = normal && decimal != null ? Digits.ofShortDecimal(decimal) : null;
        if (digits == null) {
            digits = Digits.of(shortest(magnitude, normal));
        }
        StringBuilder out = new StringBuilder(digits.digits().length() + 8);
        if (negative) {
            out.append('-');
        }
        int exponent = digits.pointPosition() - 1;
        if (exponent >= -4 && exponent < 16) {
            appendFixed(digits.digits(), digits.pointPosition(), out);
        } else {
            appendScientific(digits.digits(), exponent, out);
        }
        return out.toString();
    }

    /**
     * Significant digits without leading or trailing zeros, and the value as {@code 0.digits *
     * 10^pointPosition}.
     */
    private record Digits(String digits, int pointPosition) {

        static Digits of(BigDecimal value) {
            BigDecimal stripped = value.stripTrailingZeros();
            String digits = stripped.unscaledValue().toString();
            return new Digits(digits, digits.length() - stripped.scale());
        }

        /** The digits of a JSON number, or null when it has more than 15 significant digits. */
        static Digits ofShortDecimal(String decimal) {
            StringBuilder digits = new StringBuilder(UNIQUE_DIGITS + 1);
            int length = decimal.length();
            int i = decimal.charAt(0) == '-' ? 1 : 0;
            int pointPosition = 0;
            boolean inFraction = false;
            for (; i < length; i++) {
                char c = decimal.charAt(i);
                if (c == '.') {
                    inFraction = true;
                    continue;
                }
                if (c == 'e' || c == 'E') {
                    break;
                }
                if (digits.length() == 0 && c == '0') {
                    if (inFraction) {
                        pointPosition--;
                    }
                    continue;
                }
                digits.append(c);
                if (!inFraction) {
                    pointPosition++;
                }
            }
            int end = digits.length();
            while (end > 0 && digits.charAt(end - 1) == '0') {
                end--;
            }
            if (end == 0 || end > UNIQUE_DIGITS) {
                return null;
            }
            long exponent = 0;
            if (i < length) {
                i++;
                boolean negativeExponent = decimal.charAt(i) == '-';
                if (decimal.charAt(i) == '-' || decimal.charAt(i) == '+') {
                    i++;
                }
                for (; i < length; i++) {
                    // The value is a normal double, so a real exponent is small; saturate.
                    exponent = Math.min(exponent * 10 + (decimal.charAt(i) - '0'), 1_000_000);
                }
                if (negativeExponent) {
                    exponent = -exponent;
                }
            }
            return new Digits(digits.substring(0, end), (int) (pointPosition + exponent));
        }
    }

    private static BigDecimal shortest(double magnitude, boolean normal) {
        BigDecimal exact = new BigDecimal(magnitude);
        int precision = 1;
        if (normal) {
            BigDecimal rounded =
                    exact.round(new MathContext(UNIQUE_DIGITS, RoundingMode.HALF_EVEN));
            if (rounded.doubleValue() == magnitude) {
                return rounded;
            }
            precision = UNIQUE_DIGITS + 1;
        }
        for (; precision <= MAX_DIGITS; precision++) {
            // Only the two neighbours at this precision can read back as the double; when the
            // rounding interval is lopsided (at a power of two), the nearer one may miss it.
            BigDecimal down = exact.round(new MathContext(precision, RoundingMode.DOWN));
            BigDecimal up = exact.round(new MathContext(precision, RoundingMode.UP));
            boolean downFits = down.doubleValue() == magnitude;
            boolean upFits = up.doubleValue() == magnitude;
            if (downFits && upFits) {
                int order = exact.subtract(down).compareTo(up.subtract(exact));
                if (order != 0) {
                    return order < 0 ? down : up;
                }
                return exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            }
            if (downFits) {
                return down;
            }
            if (upFits) {
                return up;
            }
        }
        throw new IllegalStateException(
                "no " + MAX_DIGITS + "-digit decimal reads back as the double");
    }

    private static void appendFixed(String digits, int pointPosition, StringBuilder out) {
        int length = digits.length();
        if (pointPosition <= 0) {
            out.append("0.");
            out.append("0".repeat(-pointPosition));
            out.append(digits);
        } else if (pointPosition >= length) {
            out.append(digits);
            out.append("0".repeat(pointPosition - length));
            out.append(".0");
        } else {
            out.append(digits, 0, pointPosition);
            out.append('.');
            out.append(digits, pointPosition, length);
        }
    }

    private static void appendScientific(String digits, int exponent, StringBuilder out) {
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        out.append('e').append(exponent < 0 ? '-' : '+');
        int absolute = Math.abs(exponent);
        if (absolute < 10) {
            out.append('0');
        }
        out.append(absolute);
    }
}
