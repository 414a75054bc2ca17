package io.idemkit.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.core.hash.Fingerprint;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * Where a JAX-RS request's key comes from, and which headers its fingerprint takes (C6.1, C6.9).
 */
class HttpKeyPolicyTest {

    private static final HttpKeyPolicy DEFAULTS = new HttpKeyPolicy("Idempotency-Key", List.of());

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
    }

    @Idempotent(keyHeader = "X-Class-Key", fingerprintHeaders = "Currency")
    static class Orders {
        @Idempotent(fingerprintHeaders = {"Accept-Version", "currency"})
        void create() {}

        @Idempotent
        void update() {}
    }

    private static HttpKeyPolicy resolve(Config config, String method) throws Exception {
        return HttpKeyPolicy.resolve(
                config,
                Orders.class.getName(),
                method,
                Orders.class.getAnnotation(Idempotent.class),
                Orders.class.getDeclaredMethod(method).getAnnotation(Idempotent.class),
                DEFAULTS);
    }

    @Test
    void annotations_overTheDefaults_methodOverClass_headersSortedLowerCaseDistinct()
            throws Exception {
        Config none = config(Map.of());

        assertThat(resolve(none, "create"))
                .isEqualTo(new HttpKeyPolicy("X-Class-Key", List.of("accept-version", "currency")));
        assertThat(resolve(none, "update"))
                .isEqualTo(new HttpKeyPolicy("X-Class-Key", List.of("currency")));
    }

    @Test
    void perMethodKeys_winOverAnnotations() throws Exception {
        Config keys =
                config(
                        Map.of(
                                Orders.class.getName() + "/update/Idempotent/keyHeader",
                                "X-Update-Key",
                                Orders.class.getName() + "/update/Idempotent/fingerprintHeaders",
                                ""));

        assertThat(resolve(keys, "update")).isEqualTo(new HttpKeyPolicy("X-Update-Key", List.of()));
    }

    @Test
    void badHeaderNames_areRefused_inKeysAndAnnotations() {
        assertThatThrownBy(() -> HttpKeyPolicy.check(HttpKeyPolicy.KEY_HEADER, "X Key"))
                .hasMessage("'X Key' is not a header name");
        assertThat(
                        PerMethodConfig.validate(
                                config(
                                        Map.of(
                                                "com.example.A/m/Idempotent/fingerprintHeaders",
                                                "ok, b@d"))))
                .containsExactly(
                        "Invalid com.example.A/m/Idempotent/fingerprintHeaders=ok, b@d: 'b@d' is"
                                + " not a header name");
        assertThatThrownBy(() -> ConfigReader.read(config(Map.of("idemkit.key-header", "X Key"))))
                .hasMessageContaining(
                        "Invalid idemkit.key-header=X Key: 'X Key' is not a header name");
    }

    @Test
    void withoutHeaders_theFingerprintIsTheReferences_withThemItChangesWithTheirValues() {
        byte[] body = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        String plain = Fingerprint.forHttp("POST", "/o", null, body, "application/json");

        assertThat(Fingerprint.forHttp("POST", "/o", null, body, "application/json", List.of()))
                .isEqualTo(plain);
        String eur =
                Fingerprint.forHttp(
                        "POST", "/o", null, body, "application/json", List.of("currency:EUR"));
        String usd =
                Fingerprint.forHttp(
                        "POST", "/o", null, body, "application/json", List.of("currency:USD"));
        assertThat(eur).isNotEqualTo(plain).isNotEqualTo(usd);
    }
}
