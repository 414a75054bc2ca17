package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.harness.SharedLiberty;
import java.net.URI;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application that ships the library jar alone, without the MongoDB driver in {@code
 * WEB-INF/lib} (C8): on the JDBC store and on the in-memory store it deploys and replays; on the
 * MongoDB store, named by {@code idemkit.store=mongo} or picked by {@code idemkit.mongo.uri}, its
 * deployment fails naming the missing artifact, {@code org.mongodb:mongodb-driver-sync}. Four
 * applications on the Open Liberty server the JDBC tests share ({@link SharedLiberty}), which has
 * no MongoDB driver either, and whose data source {@code jdbc/idemkit} reaches a real PostgreSQL; a
 * refused application fails with {@code CWWKZ0002E} in the server's log and answers 404, while the
 * others run on.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "the server-defined data source and the log of a refused deployment read here are"
                        + " Open Liberty's")
class MongoDriverAbsentIT {

    private static final String ARTIFACT = "org.mongodb:mongodb-driver-sync";
    private static final String PROBE = "api/calls/probe";

    private static final WebArchive JDBC = war("no-driver-jdbc", ItPostgres.STORE_CONFIG);
    private static final WebArchive MEMORY = war("no-driver-memory", "idemkit.store=memory\n");
    private static final WebArchive MONGO =
            war(
                    "no-driver-mongo",
                    "idemkit.store=mongo\nidemkit.mongo.uri=mongodb://127.0.0.1:9/\n");
    private static final WebArchive AUTO_URI =
            war("no-driver-auto-uri", "idemkit.mongo.uri=mongodb://127.0.0.1:9/\n");

    private static SharedLiberty shared;
    private static URI jdbcApp;
    private static URI memoryApp;
    private static String mongoRefusal;
    private static String autoUriRefusal;

    @BeforeAll
    static void deploy() throws Exception {
        shared = SharedLiberty.get();
        jdbcApp = shared.deploy(JDBC, PROBE, "");
        memoryApp = shared.deploy(MEMORY, PROBE, "");
        mongoRefusal = shared.deployRefused(MONGO);
        autoUriRefusal = shared.deployRefused(AUTO_URI);
    }

    @AfterAll
    static void undeploy() throws Exception {
        if (shared == null) {
            return;
        }
        if (jdbcApp != null) {
            shared.undeploy(JDBC);
        }
        if (memoryApp != null) {
            shared.undeploy(MEMORY);
        }
        if (mongoRefusal != null) {
            shared.removeRefused(MONGO);
        }
        if (autoUriRefusal != null) {
            shared.removeRefused(AUTO_URI);
        }
    }

    private static WebArchive war(String name, String storeConfig) {
        return WithoutMongoDriver.war(name, storeConfig);
    }

    @Test
    void jdbcStore_deploysWithoutTheDriver_andReplays() {
        WithoutMongoDriver.assertOnceThenReplayed(jdbcApp);
    }

    @Test
    void memoryStore_deploysWithoutTheDriver_andReplays() {
        WithoutMongoDriver.assertOnceThenReplayed(memoryApp);
    }

    @Test
    void mongoStoreNamed_withoutTheDriver_failsTheDeploymentNamingTheArtifact() {
        assertRefused(MONGO, mongoRefusal, "idemkit.store=mongo, which needs the MongoDB driver");
    }

    @Test
    void mongoUriSet_withoutTheDriver_failsTheDeploymentInsteadOfFallingBackToMemory() {
        assertRefused(
                AUTO_URI,
                autoUriRefusal,
                "idemkit.store=auto picks the mongo store by its configuration");
    }

    private static void assertRefused(WebArchive war, String refusal, String why) {
        String app = war.getName().replaceFirst("\\.war$", "");
        assertThat(refusal)
                .containsPattern(
                        "CWWKZ0002E[^\\n]*" + app + "[^\\n]*" + why + "[^\\n]*" + ARTIFACT);
        assertThat(new HttpCalls(shared.server().application(war)).get(PROBE).status())
                .isEqualTo(404);
    }
}
