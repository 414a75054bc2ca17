package io.idemkit.store.mongo;

import io.idemkit.config.ConfigValues;
import io.idemkit.config.DurationFormat;
import java.time.Duration;
import java.util.function.BiFunction;

/**
 * Reads the {@code idemkit.mongo.*} keys into {@link MongoStoreSettings}, whose own checks speak
 * the house format. Applying one key at a time records every broken one, not just the first, in the
 * reading shared with the rest of the configuration. Stateless.
 */
public final class MongoSettingsReader {

    private MongoSettingsReader() {}

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; defaults in place of broken keys (the caller throws before using them)
     */
    public static MongoStoreSettings read(ConfigValues values) {
        MongoStoreSettings settings =
                new MongoStoreSettings(
                        null,
                        MongoKeys.DATABASE_DEFAULT,
                        MongoKeys.COLLECTION_DEFAULT,
                        DurationFormat.parse(MongoKeys.TIMEOUT_DEFAULT),
                        null,
                        DurationFormat.parse(MongoKeys.LEASE_GRACE_DEFAULT));
        settings = text(values, settings, MongoKeys.URI, MongoStoreSettings::withUri);
        settings = text(values, settings, MongoKeys.DATABASE, MongoStoreSettings::withDatabase);
        settings = text(values, settings, MongoKeys.COLLECTION, MongoStoreSettings::withCollection);
        settings =
                text(
                        values,
                        settings,
                        MongoKeys.WRITE_CONCERN,
                        MongoStoreSettings::withWriteConcern);
        Duration timeout = values.positive(MongoKeys.TIMEOUT, MongoKeys.TIMEOUT_DEFAULT);
        if (timeout != null) {
            settings = values.apply(settings, timeout, MongoStoreSettings::withTimeout);
        }
        Duration grace = values.notNegative(MongoKeys.LEASE_GRACE, MongoKeys.LEASE_GRACE_DEFAULT);
        if (grace != null) {
            settings = values.apply(settings, grace, MongoStoreSettings::withLeaseGrace);
        }
        return settings;
    }

    private static MongoStoreSettings text(
            ConfigValues values,
            MongoStoreSettings settings,
            String key,
            BiFunction<MongoStoreSettings, String, MongoStoreSettings> with) {
        return values.text(key).map(text -> values.apply(settings, text, with)).orElse(settings);
    }
}
