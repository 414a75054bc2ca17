package io.idemkit.store.mongo;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.store.StoreResources;
import io.idemkit.store.StoreResources.Count;
import java.lang.System.Logger.Level;
import java.time.Clock;

/**
 * Makes the MongoDB store ({@link MongoStoreFactory}): on {@code idemkit.mongo.uri}, with a client
 * the store creates and closes; otherwise on the application's one {@code MongoDatabase} bean, else
 * its one {@code MongoClient} bean, which the store uses and never closes. The one class of the
 * wing's seam that names the driver's types, reached only when the driver is there.
 */
final class MongoStoreOpening {

    private static final System.Logger LOG = System.getLogger(MongoStoreOpening.class.getName());

    private MongoStoreOpening() {}

    static IdempotencyStore open(MongoStoreSettings settings, StoreResources resources) {
        if (settings.uri() != null) {
            LOG.log(Level.INFO, "idemkit uses the MongoDB store on " + MongoKeys.URI);
            return new MongoIdempotencyStore(settings, Clock.systemUTC());
        }
        if (resources.count(MongoStoreFactory.DATABASE) == Count.ONE) {
            LOG.log(Level.INFO, "idemkit uses the MongoDB store on the MongoDatabase bean");
            return new MongoIdempotencyStore(
                    (MongoDatabase) resources.reference(MongoStoreFactory.DATABASE),
                    settings,
                    Clock.systemUTC());
        }
        LOG.log(Level.INFO, "idemkit uses the MongoDB store on the MongoClient bean");
        return new MongoIdempotencyStore(
                (MongoClient) resources.reference(MongoStoreFactory.CLIENT),
                settings,
                Clock.systemUTC());
    }
}
