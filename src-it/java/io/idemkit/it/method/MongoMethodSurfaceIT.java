package io.idemkit.it.method;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.method.app.MethodApplication;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The method surface with the MongoDB store, on each runtime of the suite, on a MongoDB-wire server
 * run by this test (mongo-java-server, in-process).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class MongoMethodSurfaceIT extends MethodSurfaceContract {

    // Started when the class loads: Arquillian deploys before any @BeforeAll method runs.
    private static final MongoServer MONGO = ItMongo.start();

    @Deployment(testable = false)
    static WebArchive application() {
        String config =
                "idemkit.mongo.uri="
                        + ItMongo.uri(MONGO)
                        + "\nidemkit.mongo.database=it_method\nidemkit.scope-mode=single-tenant\n";
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, "method-mongo.war")
                        .addPackage(MethodApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(config),
                                "META-INF/microprofile-config.properties"));
    }

    @AfterAll
    static void stopMongo() {
        MONGO.shutdownNow();
    }

    @Override
    String expectedStore() {
        return "mongodb";
    }
}
