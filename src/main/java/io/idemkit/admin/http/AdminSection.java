package io.idemkit.admin.http;

import io.idemkit.config.ConfigSection;
import io.idemkit.config.ConfigValues;
import java.util.Set;

/**
 * The admin API's keys ({@code idemkit.admin.*}), checked in the deployment's one reading; {@link
 * AdminRegistration} reads them again when JAX-RS configures it. Listed in {@code
 * META-INF/services/io.idemkit.config.ConfigSection}.
 */
public final class AdminSection implements ConfigSection {

    /** For the service loader. */
    public AdminSection() {}

    @Override
    public Set<String> keys() {
        return AdminKeys.all();
    }

    @Override
    public void read(ConfigValues values) {
        AdminSettings.read(values);
    }
}
