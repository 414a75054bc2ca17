package io.idemkit.it.deployment;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.DatabaseOnLiberty;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.ItPostgres;
import io.idemkit.it.harness.OnRuntimes;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.awaitility.Awaitility;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An application that ships the library jar alone, without the MongoDB driver in {@code
 * WEB-INF/lib} (C8): on the JDBC store and on the in-memory store it deploys and replays; on the
 * MongoDB store, named by {@code idemkit.store=mongo} or picked by {@code idemkit.mongo.uri}, its
 * deployment fails naming the missing artifact, {@code org.mongodb:mongodb-driver-sync}. Four
 * applications on one Open Liberty server of the test's own, whose data source {@code jdbc/idemkit}
 * reaches a real PostgreSQL that the test starts; a refused application fails with {@code
 * CWWKZ0002E} in the server's log and answers 404, while the others run on.
 */
@OnRuntimes(
        value = LIBERTY,
        because =
                "the server-defined data source and the log of a refused deployment read here are"
                        + " Open Liberty's")
class MongoDriverAbsentIT {

    private static final String JDBC_APP = "no-driver-jdbc";
    private static final String MEMORY_APP = "no-driver-memory";
    private static final String MONGO_APP = "no-driver-mongo";
    private static final String AUTO_URI_APP = "no-driver-auto-uri";
    private static final String ARTIFACT = "org.mongodb:mongodb-driver-sync";

    private static DatabaseOnLiberty<EmbeddedPostgres> liberty;

    @BeforeAll
    static void start() throws Exception {
        liberty =
                ItPostgres.onLiberty(
                        "idemkit-no-driver",
                        war(JDBC_APP, ItPostgres.STORE_CONFIG),
                        // The same features as the shared IT server: with appSecurity comes the
                        // Servlet API.
                        "\n<include location=\""
                                + Path.of("src-it/liberty/it-security.xml").toAbsolutePath()
                                + "\"/>",
                        "api/calls/probe",
                        war(MEMORY_APP, "idemkit.store=memory\n"),
                        war(
                                MONGO_APP,
                                "idemkit.store=mongo\nidemkit.mongo.uri=mongodb://127.0.0.1:9/\n"),
                        war(AUTO_URI_APP, "idemkit.mongo.uri=mongodb://127.0.0.1:9/\n"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (liberty != null) {
            liberty.close();
        }
    }

    private static WebArchive war(String name, String storeConfig) {
        return WithoutMongoDriver.war(name, storeConfig);
    }

    @Test
    void jdbcStore_deploysWithoutTheDriver_andReplays() throws Exception {
        assertOnceThenReplayed(liberty.app());
    }

    @Test
    void memoryStore_deploysWithoutTheDriver_andReplays() throws Exception {
        URI app = application(MEMORY_APP);
        HttpCalls http = new HttpCalls(app);
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .ignoreExceptions()
                .until(() -> http.get("api/calls/probe").status() == 200);
        assertOnceThenReplayed(app);
    }

    @Test
    void mongoStoreNamed_withoutTheDriver_failsTheDeploymentNamingTheArtifact() throws Exception {
        assertRefused(MONGO_APP, "idemkit.store=mongo, which needs the MongoDB driver");
    }

    @Test
    void mongoUriSet_withoutTheDriver_failsTheDeploymentInsteadOfFallingBackToMemory()
            throws Exception {
        assertRefused(
                AUTO_URI_APP, "idemkit.store=auto picks the mongo store by its configuration");
    }

    private static void assertRefused(String app, String why) throws Exception {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                liberty.server()
                                        .messagesLog()
                                        .matches("(?s).*CWWKZ0002E[^\\n]*" + app + ".*"));
        assertThat(liberty.server().messagesLog())
                .containsPattern(
                        "(?s)CWWKZ0002E[^\\n]*" + app + "[^\\n]*" + why + "[^\\n]*" + ARTIFACT);
        assertThat(new HttpCalls(application(app)).get("api/calls/probe").status()).isEqualTo(404);
    }

    private static URI application(String name) {
        return liberty.server().application(ShrinkWrap.create(WebArchive.class, name + ".war"));
    }

    private static void assertOnceThenReplayed(URI app) {
        WithoutMongoDriver.assertOnceThenReplayed(app);
    }
}
