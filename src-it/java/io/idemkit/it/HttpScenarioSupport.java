package io.idemkit.it;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.HttpCalls.Reply;
import io.idemkit.it.http.HttpApplication;
import io.idemkit.it.http.ShortLeaseResource;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the HTTP scenario suites share: the test application as a WAR, an HTTP client per test, a
 * tag that keeps each test's keys and call counts apart, and small helpers.
 */
abstract class HttpScenarioSupport {

    /** Settings every variant shares; the subclasses add their store's. */
    static final String COMMON_CONFIG =
            "idemkit.scope-mode=single-tenant\n"
                    + "idemkit.max-body-bytes=1024\n"
                    + "idemkit.max-request-bytes=65536\n";

    static final String BODY_X = "{\"name\": \"x\"}";
    static final String BODY_Y = "{\"name\": \"y\"}";
    static final String TAG = "X-Test-Tag";
    static final String KEY = "Idempotency-Key";
    static final String DELAY = "X-Test-Delay-Ms";

    /** The test application on the in-memory store, with the conformance file's 300 ms lease. */
    static WebArchive memoryWar(String name, String extraConfig) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(HttpApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(COMMON_CONFIG + extraConfig),
                                "META-INF/microprofile-config.properties"));
    }

    /**
     * The test application without the 300 ms lease, which the MongoDB store refuses at deployment
     * (a lease must outlast 3 × idemkit.mongo.timeout + 3 s).
     */
    static WebArchive war(String name, String extraConfig) {
        return memoryWar(name, extraConfig).deleteClass(ShortLeaseResource.class);
    }

    @ArquillianResource URL base;

    HttpCalls http;
    String tag;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
    }

    /**
     * @param database a connection to the JDBC store's database
     * @param effectiveKey a record's effective key
     * @return the {@code state} of its row in the table {@code idemkit_records}, or {@code null}
     *     when there is no row
     */
    static String storedState(Connection database, String effectiveKey) throws SQLException {
        try (PreparedStatement query =
                database.prepareStatement("SELECT state FROM idemkit_records WHERE idem_key = ?")) {
            query.setString(1, effectiveKey);
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? row.getString(1) : null;
            }
        }
    }

    String key(String name) {
        return name + "-" + tag;
    }

    int calls() {
        return Integer.parseInt(http.get("api/calls/" + tag).text());
    }

    String effectiveKey(String key, String path) throws Exception {
        return EffectiveKey.forHttp(
                key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", base.toURI().getPath() + path);
    }

    Reply post(String path, String body, String key, String... headers) {
        return http.postKeyed(path, body, key, tag, headers);
    }

    // --- helpers ---------------------------------------------------------------------------

    Reply raw(String... headerLines) {
        List<String> lines = new ArrayList<>(List.of(headerLines));
        lines.add("Content-Type: application/json");
        lines.add(TAG + ": " + tag);
        return http.raw("POST", "api/resources", lines, BODY_X.getBytes(StandardCharsets.UTF_8));
    }

    /** The UTF-8 bytes of {@code text}, one char per byte, as a raw header line carries them. */
    static String latin1(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    void awaitCalls(int n) {
        org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(20))
                .until(() -> calls() >= n);
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static URI uri(URL url) throws Exception {
        return url.toURI();
    }
}
