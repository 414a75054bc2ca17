package io.idemkit.it.deployment;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.deployment.mongobean.MongoClientProducer;
import io.idemkit.it.deployment.wiring.WiringApplication;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.LibraryJar;
import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On each runtime of the suite, an application that produces its own {@code MongoClient} bean, in
 * {@code WEB-INF/classes}, and sets no {@code idemkit.mongo.uri}, gets the MongoDB store on that
 * client (C8, C9): the claim the application makes through the injected {@code IdempotencyStore}
 * lands as a document in that MongoDB, a real MongoDB-wire server run by this test. On Payara the
 * library's bean archive cannot see the application's beans by type.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MongoClientBeanWiringIT {

    private static final String DATABASE = "it_client_bean";
    private static final String COLLECTION = "records";

    // Started when the class loads: Arquillian deploys, and the deployment names the port,
    // before any @BeforeAll method runs.
    private static final MongoServer MONGO = ItMongo.start();

    private static String uri() {
        return ItMongo.uri(MONGO);
    }

    @Deployment(testable = false)
    static WebArchive application() {
        String config =
                "shop.mongo.uri="
                        + uri()
                        + "\nidemkit.store=mongo"
                        + "\nidemkit.mongo.database="
                        + DATABASE
                        + "\nidemkit.mongo.collection="
                        + COLLECTION
                        + "\nidemkit.scope-mode=single-tenant\n";
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "mongo-client-bean.war")
                        .addPackage(WiringApplication.class.getPackage())
                        .addPackage(MongoClientProducer.class.getPackage())
                        .addAsResource(
                                new StringAsset(config),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stopMongo() {
        MONGO.shutdownNow();
    }

    @ArquillianResource private URL base;

    @Test
    void applicationMongoClientBean_givesTheApplicationTheMongoStoreOnThatClient()
            throws Exception {
        MongoStoreWiringIT.assertRoundTripLandsIn(base, uri(), DATABASE, COLLECTION);
    }
}
