package io.idemkit.it.deployment.mongobean;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The application's own {@code MongoClient}, as an application that already talks to MongoDB has
 * one; the library is given no URI and is to use this client.
 */
@ApplicationScoped
public class MongoClientProducer {

    @Inject
    @ConfigProperty(name = "shop.mongo.uri")
    String uri;

    @Produces
    @ApplicationScoped
    MongoClient client() {
        return MongoClients.create(uri);
    }

    void close(@Disposes MongoClient client) {
        client.close();
    }
}
