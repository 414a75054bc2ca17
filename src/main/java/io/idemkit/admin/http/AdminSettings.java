package io.idemkit.admin.http;

import io.idemkit.config.ConfigValues;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * The validated {@code idemkit.admin.*} keys.
 *
 * @param enabled whether the admin HTTP API is served at all
 * @param role the role its callers must be in; {@code null} (not configured) means every call is
 *     refused
 */
public record AdminSettings(boolean enabled, String role) {

    /**
     * @return the configured role, empty when none is
     */
    public Optional<String> requiredRole() {
        return Optional.ofNullable(role);
    }

    /**
     * @param config the application's configuration, already validated at deployment ({@link
     *     AdminSection})
     * @return the admin settings
     * @throws io.idemkit.config.InvalidConfigurationException when a key is broken
     */
    public static AdminSettings read(Config config) {
        return ConfigValues.checked(config, AdminSettings::read);
    }

    /**
     * @param values the reading of the application's configuration; a broken key is recorded there
     * @return the settings, off in place of a broken switch and without a broken role
     */
    public static AdminSettings read(ConfigValues values) {
        boolean enabled = values.bool(AdminKeys.ENABLED, AdminKeys.ENABLED_DEFAULT);
        Optional<String> role = values.text(AdminKeys.ROLE);
        if (role.isPresent() && !role.get().matches("[^\\s,]+")) {
            values.problem(
                    "Invalid "
                            + AdminKeys.ROLE
                            + "="
                            + role.get()
                            + ": must be one role name, without spaces or commas");
            role = Optional.empty();
        }
        return new AdminSettings(enabled, role.filter(r -> !r.isEmpty()).orElse(null));
    }
}
