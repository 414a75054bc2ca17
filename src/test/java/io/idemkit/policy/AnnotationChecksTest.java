package io.idemkit.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.Idempotent;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checks of the annotations themselves, as the container discovers each type. */
class AnnotationChecksTest {

    @Idempotent(leaseTtl = "20s")
    static class Charges {
        @Idempotent(waitTimeout = "soon")
        public void broken() {}

        @Idempotent
        private void hidden() {}

        @Idempotent(keyHeader = "X Key")
        public void badHeader() {}

        public void plain(String id) {}
    }

    private static Method method(String name) throws Exception {
        return Charges.class.getDeclaredMethod(
                name, name.equals("plain") ? new Class<?>[] {String.class} : new Class<?>[0]);
    }

    private static Idempotent on(Method method) {
        return method.getAnnotation(Idempotent.class);
    }

    @Test
    void brokenMembers_unreachableMethods_andBadHeaders_areDefinitionErrors() throws Exception {
        List<String> errors = new ArrayList<>();
        AnnotationChecks checks = new AnnotationChecks(errors::add);
        Idempotent onType = Charges.class.getAnnotation(Idempotent.class);
        String charges = Charges.class.getName();

        assertThat(checks.method(on(method("broken")), onType, method("broken"))).isTrue();
        assertThat(checks.method(on(method("hidden")), onType, method("hidden"))).isFalse();
        assertThat(checks.method(on(method("badHeader")), onType, method("badHeader"))).isTrue();

        assertThat(errors).hasSize(3);
        assertThat(errors.get(0)).startsWith("Invalid @Idempotent(waitTimeout=\"soon\": ");
        assertThat(errors.get(0)).endsWith(") on " + charges + ".broken()");
        assertThat(errors.get(1))
                .isEqualTo(
                        "@Idempotent on "
                                + charges
                                + ".hidden() would have no effect: interceptors never apply to a"
                                + " private method. Make it a non-static, non-private, non-final"
                                + " method.");
        assertThat(errors.get(2))
                .isEqualTo(
                        "Invalid @Idempotent(keyHeader=\"X Key\": 'X Key' is not a header name) on "
                                + charges
                                + ".badHeader()");
    }

    @Test
    void theClassLease_isKeptForTheStoreRule_namedWhereItWasSet() throws Exception {
        AnnotationChecks checks = new AnnotationChecks(e -> {});
        Idempotent onType = Charges.class.getAnnotation(Idempotent.class);

        checks.type(onType, Charges.class.getName());
        checks.method(on(method("hidden")), onType, method("hidden"));

        String charges = Charges.class.getName();
        assertThat(checks.leases())
                .containsExactly(
                        new LeaseChecks.AnnotatedLease(
                                "20s",
                                Duration.ofSeconds(20),
                                charges,
                                List.of(charges + "/Idempotent/leaseTtl")),
                        new LeaseChecks.AnnotatedLease(
                                "20s",
                                Duration.ofSeconds(20),
                                charges + ".hidden()",
                                List.of(
                                        charges + "/hidden/Idempotent/leaseTtl",
                                        charges + "/Idempotent/leaseTtl")));
    }

    @Test
    void keyMarkers_withoutIdempotent_orBothOnOneParameter_areDefinitionErrors() throws Exception {
        List<String> errors = new ArrayList<>();
        AnnotationChecks checks = new AnnotationChecks(errors::add);
        String where = Charges.class.getName() + ".plain()";

        checks.parameter(0, true, false, false, method("plain"));
        checks.parameter(0, true, true, true, method("plain"));
        checks.parameter(0, true, false, true, method("plain"));

        assertThat(errors)
                .containsExactly(
                        "@IdempotencyKey on parameter 0 of "
                                + where
                                + " has no effect: neither the method nor its class is"
                                + " @Idempotent.",
                        "Parameter 0 of "
                                + where
                                + " is both @IdempotencyKey and @IdempotencyIgnored; a key"
                                + " identifies the operation, so it cannot be ignored. Keep one.");
    }
}
