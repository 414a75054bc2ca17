package io.idemkit.client;

import io.idemkit.config.ConfigSection;
import io.idemkit.config.ConfigValues;
import java.util.Set;

/**
 * The calling side's keys ({@link ClientKeys}), checked in the deployment's one reading of a CDI
 * application; the client half reads them again where it starts ({@link
 * ClientSettings#fromConfig()}), also outside CDI. Listed in {@code
 * META-INF/services/io.idemkit.config.ConfigSection}. Internal.
 */
public final class ClientSection implements ConfigSection {

    /** For the service loader. */
    public ClientSection() {}

    @Override
    public Set<String> keys() {
        return ClientKeys.all();
    }

    @Override
    public void read(ConfigValues values) {
        ClientSettingsReader.read(values);
    }
}
