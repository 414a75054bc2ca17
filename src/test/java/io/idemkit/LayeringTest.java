package io.idemkit;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every package imports only the layers below it, over the compiled main classes: API ← SPI ← core
 * ← config ← the store base ← stores, telemetry and the per-method policy ← the transaction side ←
 * surfaces and the client ← health and admin ← the CDI glue. Two packages of one layer (the stores,
 * the HTTP and method surfaces) do not import each other either; the message surface sits on the
 * method surface, whose interceptor hands it an {@code onMessage} through an interface of its own.
 * When a caller needs something of a layer above it, the answer is an interface in the lower layer
 * (the SPI's {@code health()}, core's {@code MethodPolicyLookup} and {@code StoreDecorator}, the
 * method surface's {@code ListenerDelivery}), not an import upward. The check reads bytecode: a
 * compile-time constant is copied into its user by javac and escapes it, so a constant shared
 * across layers lives in the lower one. The benchmarks stay out of the product's packages.
 */
class LayeringTest {

    private static final JavaClasses MAIN =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.idemkit");

    @Test
    void everyPackage_importsOnlyTheLayersBelowIt() {
        LayeredArchitecture layers =
                layeredArchitecture()
                        .consideringOnlyDependenciesInLayers()
                        // A package no layer names is a failure, not a package left unchecked.
                        .ensureAllClassesAreContainedInArchitecture()
                        .layer("API")
                        .definedBy("io.idemkit")
                        .layer("SPI")
                        .definedBy("io.idemkit.spi")
                        .layer("Core")
                        .definedBy("io.idemkit.core..")
                        .layer("Config")
                        .definedBy("io.idemkit.config")
                        // What the bundled stores share (the wait of awaitCompletion and its
                        // signals, the StoreFactory seam the CDI glue opens them by):
                        // the store packages may use it, and it uses only the API, the SPI, core
                        // and the configuration (ConfigKeys, ConfigValues).
                        .layer("Store base")
                        .definedBy("io.idemkit.store")
                        // The per-method policy: merging and its deployment checks, no CDI. It
                        // hands the chosen store its leases (StoreLease), so it sits on the store
                        // base; the surfaces and the OpenAPI filter ask it for a method's policy.
                        .layer("Policy")
                        .definedBy("io.idemkit.policy")
                        .layer("In-memory store")
                        .definedBy("io.idemkit.store.memory..")
                        .layer("MongoDB store")
                        .definedBy("io.idemkit.store.mongo..")
                        .layer("JDBC store")
                        .definedBy("io.idemkit.store.jdbc..")
                        .layer("Redis store")
                        .definedBy("io.idemkit.store.redis..")
                        .layer("Telemetry")
                        .definedBy("io.idemkit.telemetry..")
                        .layer("HTTP surface")
                        .definedBy("io.idemkit.http..")
                        // The surfaces' side of JTA: after-commit hooks, completion in the business
                        // transaction (C13), the server's timeout.
                        .layer("Transaction completion")
                        .definedBy("io.idemkit.transaction..")
                        .layer("Method surface")
                        .definedBy("io.idemkit.method..")
                        // Built on the method surface: an MDB's onMessage is an intercepted method,
                        // which the interceptor hands over through method's ListenerDelivery.
                        .layer("Message surface")
                        .definedBy("io.idemkit.message..")
                        // Its sibling for MicroProfile Reactive Messaging (Kafka records, C17).
                        .layer("Reactive Messaging surface")
                        .definedBy("io.idemkit.reactive..")
                        .layer("Client")
                        .definedBy("io.idemkit.client..")
                        .layer("Health")
                        .definedBy("io.idemkit.health..")
                        .layer("OpenAPI")
                        .definedBy("io.idemkit.openapi..")
                        .layer("Admin")
                        .definedBy("io.idemkit.admin..")
                        .layer("CDI glue")
                        .definedBy("io.idemkit.cdi..")
                        // What a REST application names (getClasses(), mp.openapi.filter): public
                        // classes that hand their work to the surfaces below.
                        .layer("REST entry points")
                        .definedBy("io.idemkit.rest..")
                        .whereLayer("API")
                        .mayNotAccessAnyLayer()
                        .whereLayer("SPI")
                        .mayOnlyAccessLayers("API")
                        .whereLayer("Core")
                        .mayOnlyAccessLayers("API", "SPI")
                        .whereLayer("Config")
                        .mayOnlyAccessLayers("API", "SPI", "Core")
                        .whereLayer("Store base")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config")
                        .whereLayer("Policy")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Store base")
                        .whereLayer("In-memory store")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Store base")
                        .whereLayer("MongoDB store")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Store base")
                        .whereLayer("JDBC store")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Store base")
                        .whereLayer("Redis store")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Store base")
                        .whereLayer("Telemetry")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config")
                        .whereLayer("HTTP surface")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "Policy")
                        .whereLayer("Transaction completion")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config")
                        .whereLayer("Method surface")
                        .mayOnlyAccessLayers(
                                "API", "SPI", "Core", "Config", "Policy", "Transaction completion")
                        .whereLayer("Message surface")
                        .mayOnlyAccessLayers(
                                "API",
                                "SPI",
                                "Core",
                                "Config",
                                "Policy",
                                "Transaction completion",
                                "Method surface")
                        .whereLayer("Reactive Messaging surface")
                        .mayOnlyAccessLayers(
                                "API", "SPI", "Core", "Config", "Policy", "Method surface")
                        // The calling side knows nothing of the engine, the stores or the surfaces.
                        .whereLayer("Client")
                        .mayOnlyAccessLayers("API", "Config")
                        .whereLayer("Health")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config")
                        // The document describes the HTTP surface: its dialect and its settings.
                        .whereLayer("OpenAPI")
                        .mayOnlyAccessLayers(
                                "API", "SPI", "Core", "Config", "Policy", "HTTP surface")
                        .whereLayer("Admin")
                        .mayOnlyAccessLayers("API", "SPI", "Core", "Config", "HTTP surface")
                        .whereLayer("REST entry points")
                        .mayOnlyAccessLayers("HTTP surface", "Admin", "OpenAPI")
                        .whereLayer("REST entry points")
                        .mayNotBeAccessedByAnyLayer()
                        .whereLayer("CDI glue")
                        .mayOnlyAccessLayers(
                                "API",
                                "SPI",
                                "Core",
                                "Config",
                                "Store base",
                                "Policy",
                                "In-memory store",
                                "MongoDB store",
                                "JDBC store",
                                "Redis store",
                                "Telemetry",
                                "HTTP surface",
                                "Transaction completion",
                                "Method surface",
                                "Message surface",
                                "Reactive Messaging surface",
                                "Client",
                                "Health",
                                "OpenAPI",
                                "Admin");

        layers.check(MAIN);
    }

    /**
     * The benchmarks ({@code src/bench}) live in {@code io.idemkit.bench} and its subpackages (or,
     * as scripts for the source launcher, in no package), never in a product package: benchmark
     * code there would reach the product's package-private members and so tie the product's
     * internals to it unseen.
     */
    @Test
    void benchmarkSources_stayOutOfTheProductPackages() throws IOException {
        Pattern packageLine = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
        List<String> misplaced = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(Path.of("src", "bench"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).toList();
        }
        for (Path file : sources) {
            Matcher declared = packageLine.matcher(Files.readString(file));
            // A script run by the source launcher (java JfrSummary.java) declares no package.
            String pkg = declared.find() ? declared.group(1) : "";
            boolean product = pkg.equals("io.idemkit") || pkg.startsWith("io.idemkit.");
            boolean bench = pkg.equals("io.idemkit.bench") || pkg.startsWith("io.idemkit.bench.");
            if (product && !bench) {
                misplaced.add(file + ": " + pkg);
            }
        }

        assertThat(sources).as("benchmark sources found").isNotEmpty();
        assertThat(misplaced).as("benchmark sources in a product package").isEmpty();
    }
}
