package io.idemkit.it.method;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.ItRedis;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.OnRuntimes;
import io.idemkit.it.method.app.MethodApplication;
import io.idemkit.it.method.app.StatelessBookings;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import redis.clients.jedis.Jedis;

/**
 * The method surface (C7) and the tool-call vectors on the Redis store (C3), on Open Liberty and
 * WildFly, deployed on the runtime's shared server, with a real {@code redis-server} outside it
 * ({@link ItRedis}) and Jedis in the WAR's {@code WEB-INF/lib}. Not on Payara Micro, for CI time
 * only (a Payara Micro of its own for the class: 12 s there, all passed, 2026-12-07).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@OnRuntimes(
        value = {LIBERTY, WILDFLY},
        because =
                "CI time: Payara Micro starts a server for each IT class; the Redis store runs"
                        + " these on Open Liberty and WildFly, and Payara Micro runs the same"
                        + " vectors on PostgreSQL and MongoDB")
class RedisMethodSurfaceIT extends MethodSurfaceContract {

    @Deployment(testable = false)
    static WebArchive application() {
        return LibraryJar.addRedisClient(
                LibraryJar.addTo(
                        ShrinkWrap.create(WebArchive.class, "method-redis.war")
                                .addPackage(MethodApplication.class.getPackage())
                                .addAsResource(
                                        new StringAsset(
                                                ItRedis.storeConfig()
                                                        + "idemkit.scope-mode=single-tenant\n"),
                                        "META-INF/microprofile-config.properties")));
    }

    @Override
    String expectedStore() {
        return "redis";
    }

    /** A call's record is a hash on the Redis server, under the store's key prefix. */
    @Test
    void aCallsRecord_isAHashOnTheRedisServer() throws Exception {
        String key = UUID.randomUUID().toString();
        HttpResponse<String> reply =
                HttpClient.newHttpClient()
                        .send(
                                HttpRequest.newBuilder(
                                                base.toURI()
                                                        .resolve(
                                                                "api/method/stateless/book?key="
                                                                        + key))
                                        .POST(HttpRequest.BodyPublishers.noBody())
                                        .build(),
                                HttpResponse.BodyHandlers.ofString());
        String record =
                ItRedis.recordKey(
                        EffectiveKey.forMethod(
                                key,
                                ScopeResolver.SINGLE_TENANT_SCOPE,
                                StatelessBookings.class.getName(),
                                "book(java.lang.String,java.lang.String)java.lang.String"));

        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        try (Jedis redis = ItRedis.connect()) {
            assertThat(redis.type(record)).isEqualTo("hash");
            assertThat(redis.hget(record, "state")).isEqualTo("COMPLETED");
        }
    }
}
