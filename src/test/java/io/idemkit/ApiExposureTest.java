package io.idemkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The public API (docs/public-api.md) exposes no internal type: what a user may build on names only
 * the JDK, Jakarta EE, MicroProfile and other API types in its public and protected signatures
 * (parameters, returns, fields, exceptions, supertypes, and their type arguments), so that an
 * internal package can change without breaking a caller.
 */
class ApiExposureTest {

    private static final JavaClasses MAIN =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.idemkit");

    /**
     * The client half's public types that are internal: its interceptors, its keys, reader and
     * section, its listener.
     */
    private static final Set<String> CLIENT_INTERNALS =
            Set.of(
                    "io.idemkit.client.AsyncOperationListener",
                    "io.idemkit.client.AttemptInterceptor",
                    "io.idemkit.client.ClientKeys",
                    "io.idemkit.client.ClientSection",
                    "io.idemkit.client.ClientSettingsReader",
                    "io.idemkit.client.OperationInterceptor");

    @Test
    void apiSignaturesNameNoInternalType() {
        List<JavaClass> api = MAIN.stream().filter(ApiExposureTest::isApi).toList();
        Set<String> exposed = new TreeSet<>();
        for (JavaClass type : api) {
            List<JavaType> named = new ArrayList<>();
            type.getRawSuperclass().ifPresent(named::add);
            named.addAll(type.getInterfaces());
            for (JavaField field : type.getFields()) {
                if (visible(field.getModifiers())) {
                    named.add(field.getType());
                }
            }
            for (JavaCodeUnit unit : type.getCodeUnits()) {
                if (visible(unit.getModifiers())) {
                    named.add(unit.getReturnType());
                    named.addAll(unit.getParameterTypes());
                    unit.getThrowsClause().getTypes().forEach(named::add);
                }
            }
            for (JavaType t : named) {
                for (JavaClass used : t.getAllInvolvedRawTypes()) {
                    if (used.getPackageName().startsWith("io.idemkit") && !isApi(used)) {
                        exposed.add(type.getName() + " names " + used.getName());
                    }
                }
            }
        }

        assertThat(api).as("API types found").hasSizeGreaterThan(40);
        assertThat(exposed).as("internal types in the API's signatures").isEmpty();
    }

    private static boolean visible(Set<JavaModifier> modifiers) {
        return modifiers.contains(JavaModifier.PUBLIC)
                || modifiers.contains(JavaModifier.PROTECTED);
    }

    /** Whether {@code type} is of the public API, as docs/public-api.md lists it. */
    static boolean isApi(JavaClass type) {
        JavaClass top = type;
        while (top.getEnclosingClass().isPresent()) {
            top = top.getEnclosingClass().get();
        }
        if (!top.getModifiers().contains(JavaModifier.PUBLIC)) {
            return false;
        }
        String pkg = top.getPackageName();
        return switch (pkg) {
            case "io.idemkit", "io.idemkit.spi", "io.idemkit.rest" -> true;
            case "io.idemkit.admin" -> top.getSimpleName().equals("IdempotencyAdmin");
            case "io.idemkit.client" -> !CLIENT_INTERNALS.contains(top.getName());
            default -> false;
        };
    }
}
