package io.idemkit.cdi;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.idemkit.config.ConfigKeys;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.StoreKind;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.jdbc.PurgeSchedule;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.store.mongo.MongoIdempotencyStore;
import io.idemkit.store.mongo.MongoStoreSettings;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Produces the application's {@link IdempotencyStore}, as the extension's {@link StoreChoice}
 * decided at deployment from {@code idemkit.store}:
 *
 * <ul>
 *   <li>MongoDB on {@code idemkit.mongo.uri}, with a client the store creates and closes;
 *   <li>otherwise MongoDB on the application's own {@link MongoDatabase} or {@link MongoClient}
 *       bean, which the store uses and never closes;
 *   <li>otherwise (or with {@code idemkit.store=memory}) the in-memory store, with a warning;
 *   <li>with {@code idemkit.store=jdbc}, the JDBC store the extension opened and checked at
 *       deployment, on the data source {@code idemkit.jdbc.datasource} names or the application's
 *       one {@code DataSource} bean, which the store never closes; with {@code
 *       idemkit.jdbc.purge-interval} set, its expired rows are purged on a schedule, stopped when
 *       the application stops ({@link JdbcPurgeScheduling}).
 * </ul>
 *
 * An application that brings its own store declares it as an enabled alternative
 * ({@code @Alternative @Priority(...)}), which takes precedence over this producer.
 */
@ApplicationScoped
public class StoreProducer {

    private static final System.Logger LOG = System.getLogger(StoreProducer.class.getName());
    private static final Set<String> DEVELOPMENT_PROFILES = Set.of("dev", "test");

    /** The JDBC store's scheduled purge ({@code idemkit.jdbc.purge-interval}), while it runs. */
    private volatile PurgeSchedule purge;

    @Produces
    @ApplicationScoped
    IdempotencyStore store(IdemkitExtension extension, BeanManager beans) {
        IdemkitConfig config = extension.config();
        StoreChoice choice = extension.storeChoice();
        MongoStoreSettings mongo = extension.mongoSettings();
        switch (choice.store()) {
            case MONGO_ON_URI -> {
                LOG.log(Level.INFO, "idemkit uses the MongoDB store on " + ConfigKeys.MONGO_URI);
                return new MongoIdempotencyStore(mongo, Clock.systemUTC());
            }
            case MONGO_ON_DATABASE_BEAN -> {
                LOG.log(Level.INFO, "idemkit uses the MongoDB store on the MongoDatabase bean");
                return new MongoIdempotencyStore(
                        reference(beans, extension.mongoDatabaseBean(), MongoDatabase.class),
                        mongo,
                        Clock.systemUTC());
            }
            case MONGO_ON_CLIENT_BEAN -> {
                LOG.log(Level.INFO, "idemkit uses the MongoDB store on the MongoClient bean");
                return new MongoIdempotencyStore(
                        reference(beans, extension.mongoClientBean(), MongoClient.class),
                        mongo,
                        Clock.systemUTC());
            }
            case JDBC -> {
                LOG.log(Level.INFO, "idemkit uses the JDBC store");
                IdempotencyStore jdbc = extension.jdbcStore();
                purge = JdbcPurgeScheduling.start(jdbc, extension.jdbcPurgeInterval()).orElse(null);
                return jdbc;
            }
            case MEMORY -> {
                if (choice.severalMongoBeans() && !choice.configuredMemory()) {
                    LOG.log(
                            Level.WARNING,
                            "idemkit found several MongoClient or MongoDatabase beans and cannot"
                                    + " tell which to use; set "
                                    + ConfigKeys.MONGO_URI
                                    + " to choose.");
                }
                warnAboutMemory(config);
                return new InMemoryIdempotencyStore(
                        Clock.systemUTC(),
                        config.memoryMaxSize(),
                        config.memoryMaxBytes(),
                        config.memorySweepInterval());
            }
            default -> throw new IllegalStateException("Unknown store choice " + choice);
        }
    }

    /**
     * The application's bean, found by the extension in whichever bean archive it is: a lookup by
     * type from the library's archive misses it on Payara.
     */
    private static <T> T reference(BeanManager beans, Bean<?> bean, Class<T> type) {
        return type.cast(beans.getReference(bean, type, beans.createCreationalContext(bean)));
    }

    void close(@Disposes IdempotencyStore store) {
        stopPurge();
        store.close();
    }

    /** Stops the JDBC store's scheduled purge, so that a stopped application leaves no thread. */
    @PreDestroy
    void stopPurge() {
        PurgeSchedule running = purge;
        purge = null;
        if (running != null) {
            running.close();
        }
    }

    private static void warnAboutMemory(IdemkitConfig config) {
        String profile =
                ConfigProvider.getConfig()
                        .getOptionalValue("mp.config.profile", String.class)
                        .orElse("");
        if (config.store() == StoreKind.MEMORY && DEVELOPMENT_PROFILES.contains(profile)) {
            LOG.log(Level.INFO, "idemkit uses the in-memory store (profile " + profile + ").");
            return;
        }
        LOG.log(
                Level.WARNING,
                "idemkit uses the IN-MEMORY store"
                        + (config.store() == StoreKind.MEMORY
                                ? " (idemkit.store=memory)"
                                : " because " + ConfigKeys.MONGO_URI + " is not set")
                        + ": records live in this JVM only, so duplicates that reach another"
                        + " instance, or arrive after a restart, run again. Set "
                        + ConfigKeys.MONGO_URI
                        + " for production.");
    }
}
