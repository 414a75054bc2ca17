package io.idemkit.demo;

import com.mongodb.client.MongoClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.file.Path;
import org.eclipse.microprofile.config.Config;

/**
 * Gives the application a {@link MongoClient} bean. Because one exists, idemkit picks its MongoDB
 * store on it; when {@code idemkit.mongo.uri} is set (for example through the environment variable
 * {@code IDEMKIT_MONGO_URI}), idemkit uses that URI instead, and so does this producer, which then
 * starts no embedded server.
 */
@ApplicationScoped
public class DemoMongoProducer {

    /** The library's key, read here too so that the charges live where the records do. */
    static final String MONGO_URI = "idemkit.mongo.uri";

    /** The demo's own key: the directory of the embedded server's H2 file. */
    static final String DATA_DIR = "demo.data-dir";

    static final String DATA_DIR_DEFAULT = "demo-data";

    @Produces
    @Singleton
    DemoMongo mongo(Config config) {
        return config.getOptionalValue(MONGO_URI, String.class)
                .map(DemoMongo::connect)
                .orElseGet(
                        () ->
                                DemoMongo.embedded(
                                        Path.of(
                                                config.getOptionalValue(DATA_DIR, String.class)
                                                        .orElse(DATA_DIR_DEFAULT))));
    }

    // Dependent: the client belongs to DemoMongo, which closes it; no proxy in between.
    @Produces
    @Dependent
    MongoClient client(DemoMongo mongo) {
        return mongo.client();
    }

    void close(@Disposes DemoMongo mongo) {
        mongo.close();
    }
}
