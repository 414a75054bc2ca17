package io.idemkit.store.jdbc;

import io.idemkit.config.ConfigValues;
import java.time.Duration;

/**
 * Reads the {@code idemkit.jdbc.*} keys into {@link JdbcStoreSettings}, whose own checks speak the
 * house format; a broken key is recorded in the reading shared with the rest of the configuration.
 * Stateless.
 */
public final class JdbcSettingsReader {

    private JdbcSettingsReader() {}

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; defaults in place of broken keys (the caller throws before using them)
     */
    public static JdbcStoreSettings read(ConfigValues values) {
        JdbcStoreSettings settings =
                new JdbcStoreSettings(
                        JdbcKeys.TABLE_DEFAULT,
                        Boolean.parseBoolean(JdbcKeys.CREATE_TABLE_DEFAULT));
        String name = values.text(JdbcKeys.DATASOURCE).orElse(null);
        if (name != null) {
            settings = values.apply(settings, name, JdbcStoreSettings::withDataSourceName);
        }
        String table = values.text(JdbcKeys.TABLE).orElse(null);
        if (table != null) {
            settings = values.apply(settings, table, JdbcStoreSettings::withTable);
        }
        String transactional = values.text(JdbcKeys.TRANSACTION_DATASOURCE).orElse(null);
        if (transactional != null) {
            settings =
                    values.apply(
                            settings,
                            transactional,
                            JdbcStoreSettings::withTransactionDataSourceName);
        }
        Duration purge =
                values.notNegative(JdbcKeys.PURGE_INTERVAL, JdbcKeys.PURGE_INTERVAL_DEFAULT);
        if (purge != null) {
            settings = values.apply(settings, purge, JdbcStoreSettings::withPurgeInterval);
        }
        Duration ownerLock =
                values.positive(JdbcKeys.OWNER_LOCK_TIMEOUT, JdbcKeys.OWNER_LOCK_TIMEOUT_DEFAULT);
        if (ownerLock != null) {
            settings = values.apply(settings, ownerLock, JdbcStoreSettings::withOwnerLockTimeout);
        }
        Duration pollPause =
                values.positive(JdbcKeys.POLL_LONGEST_PAUSE, JdbcKeys.POLL_LONGEST_PAUSE_DEFAULT);
        if (pollPause != null) {
            settings = values.apply(settings, pollPause, JdbcStoreSettings::withPollLongestPause);
        }
        Duration network =
                values.notNegative(JdbcKeys.NETWORK_TIMEOUT, JdbcKeys.NETWORK_TIMEOUT_DEFAULT);
        if (network != null) {
            settings = values.apply(settings, network, JdbcStoreSettings::withNetworkTimeout);
        }
        return settings.withCreateTable(
                        values.bool(JdbcKeys.CREATE_TABLE, JdbcKeys.CREATE_TABLE_DEFAULT))
                .withNotifications(
                        values.bool(JdbcKeys.NOTIFICATIONS, JdbcKeys.NOTIFICATIONS_DEFAULT));
    }
}
