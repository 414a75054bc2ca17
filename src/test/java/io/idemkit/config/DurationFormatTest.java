package io.idemkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationFormatTest {

    @ParameterizedTest
    @CsvSource({
        "500ms, PT0.5S",
        "30s, PT30S",
        "5m, PT5M",
        "24h, PT24H",
        "2d, PT48H",
        "PT30S, PT30S",
        "pt1m30s, PT1M30S",
        " 10 s , PT10S"
    })
    void validText_parsesToTheDuration(String text, String expected) {
        assertThat(DurationFormat.parse(text)).isEqualTo(Duration.parse(expected));
    }

    @ParameterizedTest
    @ValueSource(strings = {"30", "soon", "", "1.5s", "10 sec", "P", "99999999999999999999s"})
    void invalidText_isRefusedWithTheRule(String text) {
        assertThatThrownBy(() -> DurationFormat.parse(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("must be a duration such as 500ms, 30s, 5m, 24h, 2d or PT30S");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "-5s", "-PT1S"})
    void zeroOrNegative_isNotPositive(String text) {
        assertThatThrownBy(() -> DurationFormat.parsePositive(text)).hasMessage("must be positive");
    }

    @ParameterizedTest
    @CsvSource({"PT0.25S, 250ms", "PT30S, 30s", "PT5M, 5m", "PT24H, 1d", "PT36H, 36h", "PT0S, 0s"})
    void format_isTheShortestText(String duration, String expected) {
        assertThat(DurationFormat.format(Duration.parse(duration))).isEqualTo(expected);
    }

    @Test
    void ttlOverOneHundredYears_isRefusedAtDeployment_notByEveryStoreCall() {
        assertThatThrownBy(() -> DurationFormat.parseTtl("36526d"))
                .hasMessage("must be at most 36525d (100 years)");
        assertThat(DurationFormat.parseTtl("36525d")).isEqualTo(Duration.ofDays(36_525));
    }

    @Test
    void ttlBelowOneMillisecond_isRefused() {
        assertThatThrownBy(() -> DurationFormat.parseTtl("PT0.0005S"))
                .hasMessage("must be at least 1ms");
        assertThatThrownBy(() -> DurationFormat.parseTtl("0s")).hasMessage("must be positive");
        assertThat(DurationFormat.parseTtl("1ms")).isEqualTo(Duration.ofMillis(1));
    }
}
