package io.idemkit.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.HttpKeyPolicy;
import io.idemkit.core.hash.BodySelection;
import io.idemkit.core.hash.Fingerprint;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/**
 * Where a JAX-RS request's key comes from, and which headers its fingerprint takes (C6.1, C6.9).
 */
class HttpKeyResolutionTest {

    private static final HttpKeyPolicy DEFAULTS = new HttpKeyPolicy("Idempotency-Key", List.of());

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
    }

    private static List<String> validate(Config config) {
        return PerMethodConfig.validate(ConfigLookup.of(config));
    }

    @Idempotent(keyHeader = "X-Class-Key", fingerprintHeaders = "Currency")
    static class Orders {
        @Idempotent(fingerprintHeaders = {"Accept-Version", "currency"})
        void create() {}

        @Idempotent
        void update() {}
    }

    private static HttpKeyPolicy resolve(Config config, String method) throws Exception {
        return HttpKeyResolution.resolve(
                ConfigLookup.of(config),
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
                        validate(
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

    static class Extracted {
        void byDefault() {}

        @Idempotent(keyHeader = "X-Key")
        void byHeader() {}
    }

    @Idempotent(keyExtractor = String.class)
    static class ExtractedOnClass {
        @Idempotent(keyHeader = "X-Key")
        void byHeader() {}

        @Idempotent
        void inherits() {}
    }

    private static HttpKeyPolicy resolve(Class<?> type, String method, Config config)
            throws Exception {
        return HttpKeyResolution.resolve(
                ConfigLookup.of(config),
                type.getName(),
                method,
                type.getAnnotation(Idempotent.class),
                type.getDeclaredMethod(method).getAnnotation(Idempotent.class),
                new HttpKeyPolicy("Idempotency-Key", List.of(), Optional.of("com.example.Global")));
    }

    @Test
    void keyHeaderAndKeyExtractor_answerOneQuestion_theMostSpecificLevelDecides() throws Exception {
        Config none = config(Map.of());

        assertThat(resolve(Extracted.class, "byDefault", none).keyExtractor())
                .contains("com.example.Global");
        assertThat(resolve(Extracted.class, "byHeader", none))
                .isEqualTo(new HttpKeyPolicy("X-Key", List.of()));
        assertThat(resolve(ExtractedOnClass.class, "inherits", none).keyExtractor())
                .contains("java.lang.String");
        assertThat(resolve(ExtractedOnClass.class, "byHeader", none).keyExtractor()).isEmpty();
        // A method key overrides the method's own annotation; blank goes back to the header.
        Config keys =
                config(
                        Map.of(
                                Extracted.class.getName() + "/byHeader/Idempotent/keyExtractor",
                                "com.example.PerMethod",
                                Extracted.class.getName() + "/byDefault/Idempotent/keyExtractor",
                                ""));
        assertThat(resolve(Extracted.class, "byHeader", keys).keyExtractor())
                .contains("com.example.PerMethod");
        assertThat(resolve(Extracted.class, "byDefault", keys))
                .isEqualTo(new HttpKeyPolicy("Idempotency-Key", List.of()));
    }

    @Idempotent(fingerprintFields = "amount")
    static class Charges {
        @Idempotent(fingerprintFields = {"order.id", "amount"})
        void create() {}

        @Idempotent
        void inherits() {}

        @Idempotent
        void byKey() {}
    }

    private static HttpKeyPolicy charges(String method, Config config) throws Exception {
        return HttpKeyResolution.resolve(
                ConfigLookup.of(config),
                Charges.class.getName(),
                method,
                Charges.class.getAnnotation(Idempotent.class),
                Charges.class.getDeclaredMethod(method).getAnnotation(Idempotent.class),
                new HttpKeyPolicy(
                        "Idempotency-Key", List.of(), Optional.empty(), List.of("total")));
    }

    @Test
    void fingerprintFields_methodKeyOverMethodAnnotationOverClassOverGlobal() throws Exception {
        Config keys =
                config(
                        Map.of(
                                Charges.class.getName() + "/byKey/Idempotent/fingerprintFields",
                                "amount, customer.id"));

        assertThat(charges("create", keys).fingerprintFields())
                .containsExactly("amount", "order.id");
        assertThat(charges("inherits", keys).fingerprintFields()).containsExactly("amount");
        assertThat(charges("byKey", keys).fingerprintFields())
                .containsExactly("amount", "customer.id");
        assertThat(charges("byKey", keys).bodySelection().paths())
                .containsExactly("amount", "customer.id");
        assertThat(DEFAULTS.bodySelection()).isSameAs(BodySelection.WHOLE_BODY);
        assertThat(ConfigReader.read(config(Map.of())).keyDefaults().fingerprintFields()).isEmpty();
    }

    @Test
    void fingerprintFields_namingNoField_anEmptyPath_orAMalformedOne_isRefused() {
        assertThatThrownBy(() -> HttpKeyPolicy.check(HttpKeyPolicy.FINGERPRINT_FIELDS, " "))
                .hasMessageStartingWith("names no field");
        assertThat(
                        validate(
                                config(
                                        Map.of(
                                                "com.example.A/m/Idempotent/fingerprintFields",
                                                "amount,,order.id",
                                                "com.example.A/n/Idempotent/fingerprintFields",
                                                "order..id"))))
                .containsExactlyInAnyOrder(
                        "Invalid com.example.A/m/Idempotent/fingerprintFields=amount,,order.id: an"
                                + " empty field path; name fields as amount or order.id,"
                                + " comma-separated",
                        "Invalid com.example.A/n/Idempotent/fingerprintFields=order..id:"
                                + " 'order..id' is not a field path: member names are separated by"
                                + " single dots, and none is empty");
        assertThatThrownBy(
                        () ->
                                ConfigReader.read(
                                        config(Map.of("idemkit.fingerprint.fields", "amount, "))))
                .hasMessageContaining(
                        "Invalid idemkit.fingerprint.fields=amount, : an empty field path");
    }

    @Test
    void bothOnOneLevel_orOneGlobally_isRefused_asIsANameThatIsNoClassName() {
        Config both =
                config(
                        Map.of(
                                Extracted.class.getName() + "/byDefault/Idempotent/keyExtractor",
                                "com.example.K",
                                Extracted.class.getName() + "/byDefault/Idempotent/keyHeader",
                                "X-Key"));

        assertThatThrownBy(() -> resolve(Extracted.class, "byDefault", both))
                .hasMessage(
                        "keyHeader and keyExtractor are both set: they are two ways to say where"
                                + " the key comes from; keep one");
        assertThatThrownBy(
                        () ->
                                ConfigReader.read(
                                        config(
                                                Map.of(
                                                        "idemkit.key-extractor",
                                                        "com.example.K",
                                                        "idemkit.key-header",
                                                        "X-Key"))))
                .hasMessageContaining(
                        "Invalid idemkit.key-extractor with idemkit.key-header: both say where the"
                                + " key comes from; keep one");
        assertThat(
                        validate(
                                config(
                                        Map.of(
                                                "com.example.A/m/Idempotent/keyExtractor",
                                                "not a class"))))
                .containsExactly(
                        "Invalid com.example.A/m/Idempotent/keyExtractor=not a class: must be the"
                                + " fully qualified name of a bean class implementing"
                                + " IdempotencyKeyExtractor (RecordKeyExtractor on an @Incoming"
                                + " method)");
        // The global key is HTTP's alone, and its rule says so.
        assertThatThrownBy(
                        () ->
                                ConfigReader.read(
                                        config(Map.of("idemkit.key-extractor", "not a class"))))
                .hasMessageContaining(
                        "Invalid idemkit.key-extractor=not a class: must be the fully qualified"
                                + " name of a bean class implementing IdempotencyKeyExtractor")
                .hasMessageNotContaining("RecordKeyExtractor");
        assertThat(
                        ConfigReader.read(config(Map.of("idemkit.key-extractor", "com.example.K")))
                                .keyDefaults()
                                .keyExtractor())
                .contains("com.example.K");
    }
}
