package io.idemkit.it.http;

import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.it.harness.HttpCalls;
import io.idemkit.it.harness.HttpCalls.Reply;
import io.idemkit.it.harness.LibraryJar;
import io.idemkit.it.harness.WebXml;
import io.idemkit.it.http.app.HttpApplication;
import io.idemkit.it.http.app.ShortLeaseResource;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
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
public abstract class HttpScenarioSupport {

    /** Settings every variant shares; the subclasses add their store's. */
    public static final String COMMON_CONFIG =
            "idemkit.scope-mode=single-tenant\n"
                    + "idemkit.max-body-bytes=1024\n"
                    + "idemkit.max-request-bytes=65536\n";

    public static final String BODY_X = "{\"name\": \"x\"}";
    public static final String BODY_Y = "{\"name\": \"y\"}";
    public static final String TAG = "X-Test-Tag";
    public static final String KEY = "Idempotency-Key";
    public static final String DELAY = "X-Test-Delay-Ms";

    /** The test application on the in-memory store, with the conformance file's 300 ms lease. */
    public static WebArchive memoryWar(String name, String extraConfig) {
        return LibraryJar.addTo(
                ShrinkWrap.create(WebArchive.class, name + ".war")
                        .addPackage(HttpApplication.class.getPackage())
                        .addAsResource(
                                new StringAsset(COMMON_CONFIG + extraConfig),
                                "META-INF/microprofile-config.properties"));
    }

    /**
     * The test application without the 300 ms lease, which the MongoDB and Redis stores refuse at
     * deployment (a lease must outlast 3 × idemkit.mongo.timeout + 3 s, or 2 ×
     * idemkit.redis.timeout).
     */
    public static WebArchive war(String name, String extraConfig) {
        return withoutShortLease(memoryWar(name, extraConfig));
    }

    /**
     * {@code war} without the endpoint of the 300 ms lease, which the MongoDB and Redis stores
     * refuse.
     */
    static WebArchive withoutShortLease(WebArchive war) {
        return war.deleteClass(ShortLeaseResource.class);
    }

    /**
     * The application of the scenarios ({@link HttpScenarios}) on a store: the test application
     * with the conformance file's {@code require_key_for_mutations} ({@code
     * idemkit.require-key=true}, for missing-key-when-required), and BASIC authentication on {@code
     * /api/secure/*} (for cross-tenant-isolation: two real users of the runtime's registry).
     *
     * @param name the WAR's name
     * @param storeConfig the store's settings
     */
    static WebArchive scenarioWar(String name, String storeConfig) {
        return WebXml.add(
                memoryWar(name, "idemkit.require-key=true\n" + storeConfig),
                WebXml.BASIC_ON_SECURE);
    }

    @ArquillianResource URL base;

    HttpCalls http;
    String tag;

    @BeforeEach
    void openClient() throws Exception {
        http = new HttpCalls(base.toURI());
        tag = UUID.randomUUID().toString();
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

    /**
     * @param user a user of the runtime's registry ({@code tenant-A}, {@code tenant-B})
     * @return the reply to {@code BODY_X} posted to the endpoint behind authentication, as that
     *     user, with {@code key}
     */
    Reply postAs(String user, String key) {
        return post(
                "api/secure/resources",
                BODY_X,
                key,
                "Authorization",
                WebXml.basicAuthorization(user));
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

    public static void await(CountDownLatch latch) {
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
