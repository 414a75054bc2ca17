package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.config.InvalidConfigurationException;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The HTTP surface's own keys, read and checked by its wing. */
class HttpSettingsTest {

    private static HttpSettings read(Map<String, String> properties) {
        return HttpSettings.read(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build());
    }

    @Test
    void noKeys_giveTheDocumentedDefaults() {
        HttpSettings s = read(Map.of());

        assertThat(s.compatMode()).isEqualTo(CompatMode.NONE);
        assertThat(s.requireKey()).isFalse();
        assertThat(s.maxRequestBytes()).isEqualTo(1024 * 1024);
        assertThat(s.headersStored())
                .containsExactlyInAnyOrder(
                        "content-type",
                        "content-encoding",
                        "content-language",
                        "content-disposition",
                        "location",
                        "etag",
                        "last-modified",
                        "link",
                        "cache-control");
        assertThat(s.headersNeverStored())
                .contains("set-cookie", "authorization", "www-authenticate", "vary")
                .contains("connection", "transfer-encoding", "upgrade");
        assertThat(s.heartbeat()).isFalse();
        assertThat(s.requestFilterPriority()).as("last").isEqualTo(Integer.MAX_VALUE);
        assertThat(s.filtersAfterIdemkit()).isEmpty();
    }

    @Test
    void everyKey_isRead() {
        HttpSettings s =
                read(
                        Map.of(
                                "idemkit.compat-mode", "stripe",
                                "idemkit.require-key", "TRUE",
                                "idemkit.max-request-bytes", "4096",
                                "idemkit.headers.stored", "Location, X-Request-Id",
                                "idemkit.headers.never-stored", "Set-Cookie",
                                "idemkit.http.heartbeat", "true",
                                "idemkit.http.request-filter-priority", "2100"));

        assertThat(s.compatMode()).isEqualTo(CompatMode.STRIPE);
        assertThat(s.requireKey()).isTrue();
        assertThat(s.maxRequestBytes()).isEqualTo(4096);
        assertThat(s.headersStored()).containsExactlyInAnyOrder("location", "x-request-id");
        // The credential headers stay denied, whatever the deployment lists (C6.3).
        assertThat(s.headersNeverStored())
                .containsExactlyInAnyOrder(
                        "set-cookie",
                        "authorization",
                        "www-authenticate",
                        "proxy-authenticate",
                        "proxy-authorization");
        assertThat(s.heartbeat()).isTrue();
        assertThat(s.requestFilterPriority()).isEqualTo(2100);
    }

    /** The acknowledged late request filters are class names (C6.10). */
    @Test
    void filtersAfterIdemkitThatAreNotClassNames_failTheDeployment() {
        assertThatThrownBy(
                        () ->
                                read(
                                        Map.of(
                                                "idemkit.http.filters-after-idemkit",
                                                "com.example.AccessLog, com.example.Cors.class/")))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .containsExactly(
                                                "Invalid idemkit.http.filters-after-idemkit="
                                                        + "com.example.AccessLog,"
                                                        + " com.example.Cors.class/:"
                                                        + " 'com.example.Cors.class/' is not a"
                                                        + " class name"));
        assertThat(
                        read(Map.of("idemkit.http.filters-after-idemkit", " a.B$C ,, d.E "))
                                .filtersAfterIdemkit())
                .containsExactlyInAnyOrder("a.B$C", "d.E");
    }

    @Test
    void everyBrokenKey_isReportedAtOnce() {
        assertThatThrownBy(
                        () ->
                                read(
                                        Map.of(
                                                "idemkit.compat-mode", "paypal",
                                                "idemkit.require-key", "yes",
                                                "idemkit.http.request-filter-priority", "-1",
                                                "idemkit.headers.stored", "Location, bad header")))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .containsExactlyInAnyOrder(
                                                "Invalid idemkit.compat-mode=paypal: must be one of"
                                                        + " none, stripe",
                                                "Invalid idemkit.require-key=yes: must be true or"
                                                        + " false",
                                                "Invalid idemkit.http.request-filter-priority=-1:"
                                                        + " must be \"last\" or a JAX-RS"
                                                        + " priority, an integer of 0 or more",
                                                "Invalid idemkit.headers.stored=Location, bad"
                                                        + " header: 'bad header' is not a header"
                                                        + " name"));
    }
}
