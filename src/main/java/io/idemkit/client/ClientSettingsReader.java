package io.idemkit.client;

import io.idemkit.config.ConfigValues;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * Internal: no compatibility guaranteed; public for the deployment checks only.
 *
 * <p>Reads the {@code idemkit.client.*} keys (C14) through {@link ConfigValues}, so that a
 * deployment lists their problems with every other key's. Stateless.
 */
public final class ClientSettingsReader {

    private static final System.Logger LOG = System.getLogger(ClientSettingsReader.class.getName());
    private static final String CONFIG_PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";

    private ClientSettingsReader() {}

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings; the defaults when a key is broken (the caller throws before using them)
     */
    public static ClientSettings read(ConfigValues values) {
        String header =
                values.value(ClientKeys.KEY_HEADER, ClientKeys.KEY_HEADER_DEFAULT, String::strip);
        Set<String> methods =
                values.value(
                        ClientKeys.METHODS,
                        ClientKeys.METHODS_DEFAULT,
                        ClientSettingsReader::methods);
        boolean keyWithoutOperation =
                values.bool(
                        ClientKeys.KEY_WITHOUT_OPERATION, ClientKeys.KEY_WITHOUT_OPERATION_DEFAULT);
        Duration lifetime = values.ttl(ClientKeys.KEY_LIFETIME, ClientKeys.KEY_LIFETIME_DEFAULT);
        Integer retries =
                values.value(
                        ClientKeys.RETRY_MAX_RETRIES,
                        ClientKeys.RETRY_MAX_RETRIES_DEFAULT,
                        ClientSettingsReader::retries);
        Duration delay = values.positive(ClientKeys.RETRY_DELAY, ClientKeys.RETRY_DELAY_DEFAULT);
        Duration maxDelay =
                values.positive(ClientKeys.RETRY_MAX_DELAY, ClientKeys.RETRY_MAX_DELAY_DEFAULT);
        Duration maxDuration =
                values.positive(
                        ClientKeys.RETRY_MAX_DURATION, ClientKeys.RETRY_MAX_DURATION_DEFAULT);
        Set<Integer> statuses =
                values.value(
                        ClientKeys.RETRY_STATUSES,
                        ClientKeys.RETRY_STATUSES_DEFAULT,
                        ClientSettingsReader::statuses);
        if (header == null
                || methods == null
                || lifetime == null
                || retries == null
                || delay == null
                || maxDelay == null
                || maxDuration == null
                || statuses == null) {
            return ClientSettings.defaults();
        }
        try {
            // The record's own checks: the header name, the methods, the statuses and the rules
            // across keys, in the same format.
            return new ClientSettings(
                    header,
                    methods,
                    keyWithoutOperation,
                    lifetime,
                    retries,
                    delay,
                    maxDelay,
                    maxDuration,
                    statuses);
        } catch (IllegalArgumentException e) {
            values.problem(e.getMessage());
            return ClientSettings.defaults();
        }
    }

    /**
     * @return the settings read from MicroProfile Config; empty when the application has no
     *     MicroProfile Config (then the defaults apply, said once at INFO)
     * @throws IllegalArgumentException listing every broken key, one per line
     */
    static Optional<ClientSettings> fromMicroProfileConfig() {
        try {
            Class.forName(CONFIG_PROVIDER, false, ClientSettingsReader.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            LOG.log(
                    Level.INFO,
                    "idemkit's client uses its default settings: no MicroProfile Config");
            return Optional.empty();
        }
        return MicroProfileConfig.read();
    }

    /** Comma-separated methods; checked by {@link ClientSettings}. */
    static Set<String> methods(String text) {
        Set<String> methods = ConfigValues.list(text, method -> method);
        if (methods.isEmpty()) {
            throw new IllegalArgumentException("must name at least one method");
        }
        return methods;
    }

    /** Comma-separated status codes; which ones may be retried is checked by ClientSettings. */
    static Set<Integer> statuses(String text) {
        return ConfigValues.list(
                text,
                code -> {
                    if (!code.matches("[1-5][0-9][0-9]")) {
                        throw new IllegalArgumentException("'" + code + "' is not a status code");
                    }
                    return Integer.parseInt(code);
                });
    }

    private static Integer retries(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 0 && n <= ClientSettings.MAX_RETRIES_LIMIT) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the rule below
        }
        throw new IllegalArgumentException(
                "must be a whole number from 0 to " + ClientSettings.MAX_RETRIES_LIMIT);
    }

    /** Loaded only where MicroProfile Config's API is on the class path. */
    private static final class MicroProfileConfig {

        static Optional<ClientSettings> read() {
            org.eclipse.microprofile.config.Config config;
            try {
                config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
            } catch (IllegalStateException e) {
                LOG.log(
                        Level.INFO,
                        "idemkit's client uses its default settings: no MicroProfile Config"
                                + " implementation");
                return Optional.empty();
            }
            ConfigValues values = new ConfigValues(config);
            ClientSettings settings = ClientSettingsReader.read(values);
            if (!values.problems().isEmpty()) {
                throw new IllegalArgumentException(String.join("\n", values.problems()));
            }
            return Optional.of(settings);
        }
    }
}
