package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CacheableStatusesTest {

    @Test
    void default2xx_storesSuccessOnly() {
        CacheableStatuses statuses = CacheableStatuses.parse(CacheableStatuses.DEFAULT);

        assertThat(statuses.contains(200)).isTrue();
        assertThat(statuses.contains(201)).isTrue();
        assertThat(statuses.contains(299)).isTrue();
        assertThat(statuses.contains(199)).isFalse();
        assertThat(statuses.contains(300)).isFalse();
        assertThat(statuses.contains(422)).isFalse();
        assertThat(statuses.contains(500)).isFalse();
    }

    @Test
    void classesCodesAndRanges_combine() {
        CacheableStatuses statuses = CacheableStatuses.parse("2xx, 409 ,400-404");

        assertThat(statuses.contains(204)).isTrue();
        assertThat(statuses.contains(409)).isTrue();
        assertThat(statuses.contains(400)).isTrue();
        assertThat(statuses.contains(404)).isTrue();
        assertThat(statuses.contains(405)).isFalse();
        assertThat(statuses.contains(500)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2xx,", "6xx", "099", "700", "404-400", "2XX;4xx", "abc"})
    void malformedLists_areRefused(String text) {
        assertThatThrownBy(() -> CacheableStatuses.parse(text))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
