package io.idemkit.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code idemkit.jdbc.poll-longest-pause} (C4.3): 500 ms unless set, at least 1 ms, and kept by
 * every other setting's change.
 */
class PollLongestPauseSettingTest {

    @Test
    void unset_isHalfASecond_asBefore() {
        assertThat(JdbcStoreSettings.defaults().pollLongestPause())
                .isEqualTo(Duration.ofMillis(500));
    }

    @Test
    void underOneMillisecond_isRefused_withTheKeyInTheMessage() {
        JdbcStoreSettings settings = JdbcStoreSettings.defaults();

        assertThatThrownBy(() -> settings.withPollLongestPause(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("idemkit.jdbc.poll-longest-pause")
                .hasMessageContaining("at least 1ms");
        assertThatThrownBy(() -> settings.withPollLongestPause(Duration.ofNanos(999_999)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> settings.withPollLongestPause(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void set_isKeptByTheOtherSettingsChanges() {
        JdbcStoreSettings settings =
                JdbcStoreSettings.defaults()
                        .withPollLongestPause(Duration.ofMinutes(1))
                        .withTable("other")
                        .withCreateTable(true)
                        .withDataSourceName("jdbc/x")
                        .withTransactionDataSourceName("jdbc/y")
                        .withPurgeInterval(Duration.ofMinutes(5))
                        .withNotifications(false);

        assertThat(settings.pollLongestPause()).isEqualTo(Duration.ofMinutes(1));
    }
}
