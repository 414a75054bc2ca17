package io.idemkit.admin.http;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import java.util.ArrayList;
import java.util.List;
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
     * @param config the application's configuration, already validated by {@link #problems}
     * @return the admin settings
     */
    public static AdminSettings read(Config config) {
        List<String> problems = new ArrayList<>();
        AdminSettings settings = read(config, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return settings;
    }

    /**
     * @param config the application's configuration
     * @return every broken rule, in the house format; empty when the keys are valid
     */
    public static List<String> problems(Config config) {
        List<String> problems = new ArrayList<>();
        read(config, problems);
        return problems;
    }

    private static AdminSettings read(Config config, List<String> problems) {
        ConfigValues values = new ConfigValues(config);
        boolean enabled = values.bool(ConfigKeys.ADMIN_ENABLED, ConfigKeys.ADMIN_ENABLED_DEFAULT);
        problems.addAll(values.problems());
        Optional<String> role =
                config.getOptionalValue(ConfigKeys.ADMIN_ROLE, String.class).map(String::strip);
        if (role.isPresent() && !role.get().matches("[^\\s,]+")) {
            problems.add(
                    "Invalid "
                            + ConfigKeys.ADMIN_ROLE
                            + "="
                            + role.get()
                            + ": must be one role name, without spaces or commas");
            role = Optional.empty();
        }
        return new AdminSettings(enabled, role.filter(r -> !r.isEmpty()).orElse(null));
    }
}
