package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Header values: Retry-After (C6.4: whole seconds, rounded up, never 0), Idempotency-Key-Expires
 * (C6.8).
 */
class HeaderValuesTest {

    @Test
    void retryAfter_roundsUpToWholeSeconds_andIsAtLeastOne() {
        assertThat(ProblemResponses.seconds(Duration.ZERO)).isEqualTo("1");
        assertThat(ProblemResponses.seconds(Duration.ofMillis(1))).isEqualTo("1");
        assertThat(ProblemResponses.seconds(Duration.ofMillis(1000))).isEqualTo("1");
        assertThat(ProblemResponses.seconds(Duration.ofMillis(1001))).isEqualTo("2");
        assertThat(ProblemResponses.seconds(Duration.ofSeconds(29, 1))).isEqualTo("30");
    }

    @Test
    void imfFixdate_hasTwoDigitDaysAndGmt() {
        assertThat(HttpSurface.imfFixdate(java.time.Instant.parse("2026-12-03T09:05:07Z")))
                .isEqualTo("Thu, 03 Dec 2026 09:05:07 GMT");
    }

    @Test
    void imfFixdate_formattedOncePerSecond_stillFollowsEverySecondAndDropsFractions() {
        java.time.Instant t = java.time.Instant.parse("2026-12-03T09:05:07.250Z");

        assertThat(HttpSurface.imfFixdate(t)).isEqualTo("Thu, 03 Dec 2026 09:05:07 GMT");
        assertThat(HttpSurface.imfFixdate(t.plusMillis(700)))
                .isEqualTo("Thu, 03 Dec 2026 09:05:07 GMT");
        assertThat(HttpSurface.imfFixdate(t.plusMillis(750)))
                .isEqualTo("Thu, 03 Dec 2026 09:05:08 GMT");
        assertThat(HttpSurface.imfFixdate(t.minusSeconds(86_400)))
                .isEqualTo("Wed, 02 Dec 2026 09:05:07 GMT");
    }
}
