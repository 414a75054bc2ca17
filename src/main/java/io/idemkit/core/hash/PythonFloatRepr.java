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
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("not a finite double");
        }
        boolean negative = (Double.doubleToRawLongBits(value) & Long.MIN_VALUE) != 0;
        if (value == 0.0) {
            return negative ? "-0.0" : "0.0";
        }
        double magnitude = Math.abs(value);
        BigDecimal shortest = shortest(magnitude).stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        // value = 0.digits * 10^pointPosition
        int pointPosition = digits.length() - shortest.scale();
        StringBuilder out = new StringBuilder(digits.length() + 8);
        if (negative) {
            out.append('-');
        }
        int exponent = pointPosition - 1;
        if (exponent >= -4 && exponent < 16) {
            appendFixed(digits, pointPosition, out);
        } else {
            appendScientific(digits, exponent, out);
        }
        return out.toString();
    }

    private static BigDecimal shortest(double magnitude) {
        BigDecimal exact = new BigDecimal(magnitude);
        for (int precision = 1; precision <= MAX_DIGITS; precision++) {
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
