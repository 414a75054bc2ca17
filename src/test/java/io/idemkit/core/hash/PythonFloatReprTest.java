package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PythonFloatRepr against CPython 3.11's {@code repr(float)}. */
class PythonFloatReprTest {

    @Test
    void notationSwitches_atExponentsMinus4And16() {
        assertThat(PythonFloatRepr.format(1e-4)).isEqualTo("0.0001");
        assertThat(PythonFloatRepr.format(1e-5)).isEqualTo("1e-05");
        assertThat(PythonFloatRepr.format(1.5e-5)).isEqualTo("1.5e-05");
        assertThat(PythonFloatRepr.format(1e15)).isEqualTo("1000000000000000.0");
        assertThat(PythonFloatRepr.format(9999999999999998.0)).isEqualTo("9999999999999998.0");
        assertThat(PythonFloatRepr.format(1e16)).isEqualTo("1e+16");
        assertThat(PythonFloatRepr.format(1.5e300)).isEqualTo("1.5e+300");
    }

    @Test
    void zeroAndIntegralValues_keepSignAndPointZero() {
        assertThat(PythonFloatRepr.format(0.0)).isEqualTo("0.0");
        assertThat(PythonFloatRepr.format(-0.0)).isEqualTo("-0.0");
        assertThat(PythonFloatRepr.format(1500.0)).isEqualTo("1500.0");
        assertThat(PythonFloatRepr.format(-2.0)).isEqualTo("-2.0");
    }

    @Test
    void digits_areShortest_whereJava17DoubleToStringIsNot() {
        // Java 17 prints 2.0E-3 as "0.002" but, for example, 1.0E23 as "1.0E23" and
        // 2.82879384806159E17 with extra digits; Python always prints the shortest.
        assertThat(PythonFloatRepr.format(2.82879384806159e17)).isEqualTo("2.82879384806159e+17");
        assertThat(PythonFloatRepr.format(1e23)).isEqualTo("1e+23");
        assertThat(PythonFloatRepr.format(5e-324)).isEqualTo("5e-324");
        assertThat(PythonFloatRepr.format(Double.MAX_VALUE)).isEqualTo("1.7976931348623157e+308");
        assertThat(PythonFloatRepr.format(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    }
}
