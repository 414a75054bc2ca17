package io.idemkit.config;

import java.util.Set;

/**
 * A wing's own configuration: keys beyond {@link ConfigKeys} that the wing declares, reads and
 * checks itself, in the deployment's one reading, so that one failed deployment lists every problem
 * and the unknown-key check knows every key. Each bundled store is one ({@code
 * io.idemkit.store.StoreFactory}); other wings (the admin API, the client half) list theirs in
 * {@code META-INF/services/io.idemkit.config.ConfigSection}, which the CDI glue loads.
 *
 * <p>Internal: no compatibility guaranteed.
 */
public interface ConfigSection {

    /**
     * Answered before any reading, and for a store without the store's driver.
     *
     * @return every key of the wing's own ({@code idemkit.admin.*})
     */
    Set<String> keys();

    /**
     * Reads and checks the wing's keys; a broken one is recorded in {@code values}. Called once at
     * deployment, before the engine's keys are read.
     *
     * @param values the reading of the application's configuration
     */
    void read(ConfigValues values);
}
