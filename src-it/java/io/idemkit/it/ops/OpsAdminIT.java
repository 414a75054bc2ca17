package io.idemkit.it.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import de.bwaldvogel.mongo.MongoServer;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.ItMongo;
import io.idemkit.it.harness.TestPorts;
import io.idemkit.it.http.HttpScenarios;
import io.idemkit.it.ops.app.CustomStore;
import io.idemkit.testsupport.ForwardingStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The opt-in admin API on Open Liberty with a basic registry: refused without authentication (401)
 * and without the role (403); 404 for an unknown key; a lookup by raw parts that shows the record
 * without its body unless asked; a delete after which the next request runs again (C3 delete).
 * Disabled, it is indistinguishable from an unknown path; enabled without a role, it refuses
 * everyone. On a store that cannot purge on demand, purge is a 501; while the store is down, every
 * call is a 503 problem that does not echo the store's error.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@EnabledIfSystemProperty(
        named = "arquillian.launch",
        matches = "liberty-ops|wildfly",
        disabledReason =
                "runs on Liberty's ops server and on WildFly; not on Payara Micro, whose"
                        + " Arquillian adapter starts one server per deployment on one fixed port,"
                        + " while this class deploys five applications side by side")
class OpsAdminIT {

    /**
     * Declares the role, so that Liberty's role binding (src-it/liberty-ops) applies to it; on
     * WildFly, the ApplicationRealm gives the operator that role (src-it/wildfly/configuration).
     */
    private static final String WEB_XML =
            "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">"
                    + "<login-config><auth-method>BASIC</auth-method>"
                    + "<realm-name>idemkit-it</realm-name></login-config>"
                    + "<security-role><role-name>idemkit-admin</role-name></security-role>"
                    + "</web-app>";

    private static final String ENABLED =
            "idemkit.admin.enabled=true\nidemkit.admin.role=idemkit-admin\n";
    private static final int MONGO_PORT = TestPorts.next();
    private static MongoServer mongo = ItMongo.start(MONGO_PORT);

    private static final String ADMIN = basic("ops-admin");
    private static final String TENANT = basic("tenant-A");

    private static WebArchive war(String name, String admin) {
        return HttpScenarios.war(name, "idemkit.store=memory\n" + admin)
                .setWebXML(new StringAsset(WEB_XML));
    }

    @Deployment(name = "enabled", testable = false)
    static WebArchive enabled() {
        return war("ops-admin", ENABLED);
    }

    @Deployment(name = "disabled", testable = false)
    static WebArchive disabled() {
        return war("ops-admin-off", "");
    }

    @Deployment(name = "no-role", testable = false)
    static WebArchive noRole() {
        return war("ops-admin-no-role", "idemkit.admin.enabled=true\n");
    }

    @Deployment(name = "custom-store", testable = false)
    static WebArchive customStore() {
        return war("ops-admin-custom", ENABLED)
                .addClasses(ForwardingStore.class, CustomStore.class);
    }

    @Deployment(name = "on-mongo", testable = false)
    static WebArchive onMongo() {
        return HttpScenarios.war(
                        "ops-admin-mongo",
                        "idemkit.mongo.uri=mongodb://127.0.0.1:"
                                + MONGO_PORT
                                + "\nidemkit.mongo.database=it_ops_admin"
                                + "\nidemkit.mongo.timeout=1s\n"
                                + ENABLED)
                .setWebXML(new StringAsset(WEB_XML));
    }

    @AfterAll
    static void stopMongo() {
        mongo.shutdownNow();
    }

    @ArquillianResource
    @OperateOnDeployment("enabled")
    URL enabledBase;

    @ArquillianResource
    @OperateOnDeployment("custom-store")
    URL customStoreBase;

    @ArquillianResource
    @OperateOnDeployment("on-mongo")
    URL mongoBase;

    @ArquillianResource
    @OperateOnDeployment("disabled")
    URL disabledBase;

    @ArquillianResource
    @OperateOnDeployment("no-role")
    URL noRoleBase;

    @Test
    void withoutCredentials_401_withoutTheRole_403_unknownKey_404() throws Exception {
        HttpCalls http = new HttpCalls(enabledBase.toURI());
        String unknown = "ab".repeat(32);

        Reply anonymous = http.get("api/idemkit/admin/records/" + unknown);
        Reply tenant = http.get("api/idemkit/admin/records/" + unknown, "Authorization", TENANT);
        Reply admin = http.get("api/idemkit/admin/records/" + unknown, "Authorization", ADMIN);
        Reply badKey = http.get("api/idemkit/admin/records/not-a-key", "Authorization", ADMIN);

        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("Content-Type")).startsWith("application/problem+json");
        assertThat(anonymous.text()).contains("\"type\":\"urn:idemkit:admin-unauthorized\"");
        assertThat(tenant.status()).isEqualTo(403);
        assertThat(tenant.text()).contains("\"type\":\"urn:idemkit:admin-forbidden\"");
        assertThat(admin.status()).isEqualTo(404);
        assertThat(admin.header("Content-Type")).startsWith("application/problem+json");
        assertThat(admin.text()).contains("\"type\":\"urn:idemkit:record-not-found\"");
        assertThat(badKey.status()).isEqualTo(400);
        // Without credentials even an unknown admin path says only 401.
        assertThat(http.get("api/idemkit/admin/anything").status()).isEqualTo(401);
    }

    @Test
    void wrongMethod_405_withAllow() throws Exception {
        HttpCalls http = new HttpCalls(enabledBase.toURI());

        Reply purgeByGet = http.get("api/idemkit/admin/purge-expired", "Authorization", ADMIN);
        Reply recordByPost =
                http.postJson(
                        "api/idemkit/admin/records/" + "cd".repeat(32),
                        "{}",
                        "Authorization",
                        ADMIN);

        assertThat(purgeByGet.status()).isEqualTo(405);
        assertThat(purgeByGet.header("Allow")).isEqualTo("POST");
        assertThat(purgeByGet.header("Content-Type")).startsWith("application/problem+json");
        assertThat(purgeByGet.text()).contains("\"type\":\"urn:idemkit:admin-method-not-allowed\"");
        assertThat(recordByPost.status()).isEqualTo(405);
        assertThat(recordByPost.header("Allow")).isEqualTo("GET, DELETE");
    }

    @Test
    void lookupShowsTheRecord_deleteMakesTheNextRequestRunAgain() throws Exception {
        HttpCalls http = new HttpCalls(enabledBase.toURI());
        String tag = UUID.randomUUID().toString();
        String key = "admin-" + tag;
        String path = enabledBase.toURI().getPath() + "api/resources";

        Reply first = post(http, key, tag);
        assertThat(first.status()).isEqualTo(201);
        assertThat(post(http, key, tag).header("Idempotency-Replayed")).isEqualTo("true");
        assertThat(calls(http, tag)).isEqualTo(1);

        Reply lookup =
                http.postJson(
                        "api/idemkit/admin/records/lookup",
                        Json.createObjectBuilder()
                                .add("key", key)
                                .add("scope", ScopeResolver.SINGLE_TENANT_SCOPE)
                                .add("method", "POST")
                                .add("path", path)
                                .build()
                                .toString(),
                        "Authorization",
                        ADMIN);
        assertThat(lookup.status()).isEqualTo(200);
        // Liberty appends its own no-cache=set-cookie to an authenticated response.
        assertThat(lookup.header("Cache-Control")).startsWith("no-store");
        JsonObject record = json(lookup);
        String effectiveKey =
                EffectiveKey.forHttp(key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", path);
        assertThat(record.getString("effectiveKey")).isEqualTo(effectiveKey);
        assertThat(record.getString("state")).isEqualTo("COMPLETED");
        assertThat(record.getInt("status")).isEqualTo(201);
        assertThat(record.getInt("bodyBytes")).isEqualTo(first.body().length);
        assertThat(record.getString("fingerprint")).hasSize(64);
        assertThat(record.containsKey("completedAt")).isTrue();
        assertThat(record.containsKey("expiresAt")).isTrue();
        assertThat(record.containsKey("body")).isFalse();
        assertThat(lookup.text()).doesNotContain(key);

        Reply withBody =
                http.get(
                        "api/idemkit/admin/records/" + effectiveKey + "?body=true",
                        "Authorization",
                        ADMIN);
        assertThat(Base64.getDecoder().decode(json(withBody).getString("body")))
                .isEqualTo(first.body());

        Reply deleted =
                http.delete("api/idemkit/admin/records/" + effectiveKey, "Authorization", ADMIN);
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(
                        http.get(
                                        "api/idemkit/admin/records/" + effectiveKey,
                                        "Authorization",
                                        ADMIN)
                                .status())
                .isEqualTo(404);

        Reply again = post(http, key, tag);
        assertThat(again.status()).isEqualTo(201);
        assertThat(again.has("Idempotency-Replayed")).isFalse();
        assertThat(calls(http, tag)).isEqualTo(2);

        Reply purge = http.postJson("api/idemkit/admin/purge-expired", "", "Authorization", ADMIN);
        assertThat(purge.status()).isEqualTo(200);
        assertThat(json(purge).getJsonNumber("deleted").longValue()).isZero();
    }

    @Test
    void disabled_isIndistinguishableFromAnUnknownPath() throws Exception {
        HttpCalls http = new HttpCalls(disabledBase.toURI());
        String someKey = "cd".repeat(32);

        Reply admin = http.get("api/idemkit/admin/records/" + someKey, "Authorization", ADMIN);
        Reply unknown = http.get("api/no-such-resource/records/" + someKey, "Authorization", ADMIN);
        Reply anonymous = http.get("api/idemkit/admin/records/" + someKey);
        Reply delete = http.delete("api/idemkit/admin/records/" + someKey, "Authorization", ADMIN);

        assertThat(admin.status()).isEqualTo(404).isEqualTo(unknown.status());
        assertThat(admin.header("Content-Type")).isEqualTo(unknown.header("Content-Type"));
        assertThat(admin.body().length).isEqualTo(unknown.body().length);
        assertThat(anonymous.status()).isEqualTo(404);
        assertThat(delete.status()).isEqualTo(404);
        assertThat(admin.text()).doesNotContain("idemkit");
    }

    @Test
    void enabledWithoutARole_refusesEveryone() throws Exception {
        HttpCalls http = new HttpCalls(noRoleBase.toURI());

        Reply admin =
                http.get("api/idemkit/admin/records/" + "ef".repeat(32), "Authorization", ADMIN);

        assertThat(admin.status()).isEqualTo(403);
        assertThat(admin.text())
                .contains("\"type\":\"urn:idemkit:admin-forbidden\"")
                .contains("idemkit.admin.role");
        assertThat(http.get("api/idemkit/admin/records/" + "ef".repeat(32)).status())
                .isEqualTo(403);
    }

    @Test
    void purgeOnAStoreThatCannotPurge_501Problem() throws Exception {
        HttpCalls http = new HttpCalls(customStoreBase.toURI());

        Reply purge = http.postJson("api/idemkit/admin/purge-expired", "", "Authorization", ADMIN);

        assertThat(purge.status()).isEqualTo(501);
        assertThat(purge.header("Content-Type")).startsWith("application/problem+json");
        assertThat(purge.text())
                .contains("\"type\":\"urn:idemkit:admin-unsupported\"")
                .contains("The custom store cannot purge expired records on demand.");
        // The rest of the API works on any store.
        assertThat(
                        http.get(
                                        "api/idemkit/admin/records/" + "ab".repeat(32),
                                        "Authorization",
                                        ADMIN)
                                .status())
                .isEqualTo(404);
    }

    @Test
    void storeOutage_503Problem_thatNamesNeitherTheStoreNorTheError() throws Exception {
        HttpCalls http = new HttpCalls(mongoBase.toURI());
        String record = "api/idemkit/admin/records/" + "cd".repeat(32);
        assertThat(http.get(record, "Authorization", ADMIN).status()).isEqualTo(404);

        mongo.shutdownNow();
        try {
            Reply lookup = http.get(record, "Authorization", ADMIN);
            Reply delete = http.delete(record, "Authorization", ADMIN);
            Reply purge =
                    http.postJson("api/idemkit/admin/purge-expired", "", "Authorization", ADMIN);

            for (Reply reply : new Reply[] {lookup, delete, purge}) {
                assertThat(reply.status()).isEqualTo(503);
                assertThat(reply.header("Content-Type")).startsWith("application/problem+json");
                assertThat(reply.text())
                        .contains("\"type\":\"urn:idemkit:storage-error\"")
                        .doesNotContain("127.0.0.1")
                        .doesNotContain("Exception");
            }
        } finally {
            mongo = ItMongo.start(MONGO_PORT);
        }
        await().atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(() -> http.get(record, "Authorization", ADMIN).status() == 404);
    }

    private static Reply post(HttpCalls http, String key, String tag) {
        return http.postKeyed("api/resources", HttpScenarios.BODY_X, key, tag);
    }

    private static int calls(HttpCalls http, String tag) {
        return Integer.parseInt(http.get("api/calls/" + tag).text());
    }

    private static JsonObject json(Reply reply) {
        try (JsonReader reader = Json.createReader(new StringReader(reply.text()))) {
            return reader.readObject();
        }
    }

    private static String basic(String user) {
        return "Basic "
                + Base64.getEncoder()
                        .encodeToString(
                                (user + ":" + user + "-secret").getBytes(StandardCharsets.UTF_8));
    }
}
