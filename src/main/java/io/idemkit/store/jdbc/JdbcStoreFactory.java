package io.idemkit.store.jdbc;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.ConfigValues;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreDriver;
import io.idemkit.store.StoreFactory;
import io.idemkit.store.StoreResources;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The JDBC store's wing ({@code idemkit.store=jdbc}, never chosen by {@code auto}: an application's
 * data source is there for its own data, and using it for records needs a table that only the
 * application's owner should decide to create): its keys ({@code idemkit.jdbc.*}), its opening and
 * checks at deployment ({@link JdbcStoreOpening}, C12), whether it can complete a record inside the
 * business transaction (C13), and its scheduled purge ({@link JdbcPurgeScheduling}), stopped with
 * the application. It needs no driver in the application: the data source brings its JDBC driver,
 * and a data source that cannot load it fails where the server or the application defines it.
 */
public final class JdbcStoreFactory implements StoreFactory {

    private static final System.Logger LOG = System.getLogger(JdbcStoreFactory.class.getName());

    private JdbcStoreSettings settings;
    private volatile JdbcIdempotencyStore opened;
    private volatile String problem;
    private volatile PurgeSchedule purge;

    /** For the service loader. */
    public JdbcStoreFactory() {}

    @Override
    public String name() {
        return "jdbc";
    }

    @Override
    public Set<String> keys() {
        return JdbcKeys.all();
    }

    @Override
    public Optional<String> howToChoose() {
        return Optional.of(
                "set "
                        + ConfigKeys.STORE
                        + "=jdbc (on "
                        + JdbcKeys.DATASOURCE
                        + ", or the application's one DataSource bean)");
    }

    @Override
    public Optional<StoreDriver> driver() {
        return Optional.empty();
    }

    @Override
    public void read(ConfigValues values) {
        settings = JdbcSettingsReader.read(values);
    }

    @Override
    public Optional<String> inTransactionProblem() {
        return settings.transactionDataSourceName() != null
                ? Optional.empty()
                : Optional.of(
                        JdbcKeys.TRANSACTION_DATASOURCE
                                + " is not set: name the JTA data source of the business writes,"
                                + " on the JDBC store's database");
    }

    @Override
    public List<String> open(StoreResources resources, IdemkitConfig config) {
        JdbcStoreOpening.Opened result =
                JdbcStoreOpening.open(settings, config.maxBodyBytes(), resources);
        opened = result.store();
        problem = result.problem();
        return problem == null ? List.of() : List.of(problem);
    }

    @Override
    public IdempotencyStore store(StoreResources resources, IdemkitConfig config) {
        JdbcIdempotencyStore store = opened;
        if (store == null) {
            // Asked by another extension's observer before the container reports the problem.
            throw new IllegalStateException(
                    problem != null ? problem : "idemkit's JDBC store is opened at deployment");
        }
        LOG.log(Level.INFO, "idemkit uses the JDBC store");
        purge =
                JdbcPurgeScheduling.start(
                                store,
                                settings.purgeInterval(),
                                resources.managedScheduler(),
                                resources.managedSchedulerName())
                        .orElse(null);
        return store;
    }

    /** Stops the scheduled purge, so that a stopped application leaves no thread. */
    @Override
    public void stop() {
        PurgeSchedule running = purge;
        purge = null;
        if (running != null) {
            running.close();
        }
    }
}
