package io.idemkit.admin.http;

import io.idemkit.config.ConfigKeys;
import java.util.Set;

/**
 * The {@code idemkit.admin.*} keys of the admin HTTP API, with their defaults: declared in its
 * wing, which hands them to the unknown-key check ({@link #all()}).
 */
public final class AdminKeys {

    /** Whether the admin HTTP API is served ({@code true} or {@code false}); off by default. */
    public static final String ENABLED = ConfigKeys.PREFIX + "admin.enabled";

    /** Default of {@link #ENABLED}. */
    public static final String ENABLED_DEFAULT = "false";

    /** The role a caller of the admin HTTP API must be in; unset means the API refuses everyone. */
    public static final String ROLE = ConfigKeys.PREFIX + "admin.role";

    private AdminKeys() {}

    /**
     * @return every key above (not the defaults), sorted
     */
    public static Set<String> all() {
        return ConfigKeys.declaredBy(AdminKeys.class);
    }
}
