package io.idemkit.it.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.http.HttpScenarioSupport;
import io.idemkit.it.http.app.HttpApplication;
import java.net.URI;
import java.util.UUID;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The HTTP test application as a WAR on the JDBC or in-memory store ships it without the MongoDB
 * driver (C8), and the one check every such test makes: a keyed call runs once and is replayed.
 */
final class WithoutMongoDriver {

    private WithoutMongoDriver() {}

    /**
     * @param name the WAR's name, without {@code .war}
     * @param storeConfig the store's keys
     * @return the HTTP test application with the library jar alone in {@code WEB-INF/lib}
     */
    static WebArchive war(String name, String storeConfig) {
        WebArchive war =
                LibraryJar.addAlone(
                        ShrinkWrap.create(WebArchive.class, name + ".war")
                                .addPackage(HttpApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                HttpScenarioSupport.COMMON_CONFIG + storeConfig),
                                        "META-INF/microprofile-config.properties"));
        assertThat(war.getContent().keySet())
                .as("no MongoDB driver in " + name)
                .noneMatch(path -> path.get().matches("/WEB-INF/lib/(mongodb|bson).*"));
        return war;
    }

    /** A keyed POST answers 201 and runs once; the same POST again is replayed. */
    static void assertOnceThenReplayed(URI app) {
        HttpCalls http = new HttpCalls(app);
        String tag = UUID.randomUUID().toString();
        String key = "no-driver-" + tag;

        Reply first = http.postKeyed("api/resources", HttpScenarioSupport.BODY_X, key, tag);
        Reply second = http.postKeyed("api/resources", HttpScenarioSupport.BODY_X, key, tag);

        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Idempotency-Replayed")).isNull();
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(http.get("api/calls/" + tag).text()).isEqualTo("1");
    }
}
