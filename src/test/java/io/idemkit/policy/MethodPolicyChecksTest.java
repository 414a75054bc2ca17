package io.idemkit.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.config.ConfigReader;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.CompletionMode;
import io.idemkit.core.OperationPolicy;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The per-method policy and its deployment checks over plain inputs, without a container: the
 * annotations of plain classes, a map of keys, and method descriptions.
 */
class MethodPolicyChecksTest {

    private static final IdemkitConfig GLOBAL = global(Map.of("idemkit.lease-ttl", "30s"));

    private static IdemkitConfig global(Map<String, String> keys) {
        return ConfigReader.read(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(keys, "test", 500))
                        .build());
    }

    @Idempotent(leaseTtl = "40s", waitTimeout = "3s")
    static class Orders {
        @Idempotent(leaseTtl = "50s")
        public void create(@IdempotencyKey String id) {}

        public void update(@IdempotencyKey String id) {}

        @Idempotent(completion = "in-transaction")
        public void book(@IdempotencyKey String id) {}

        public void derived(String order) {}
    }

    private static MethodRef ref(String name) {
        for (Method m : Orders.class.getDeclaredMethods()) {
            if (m.getName().equals(name)) {
                return new MethodRef(Orders.class, m);
            }
        }
        throw new AssertionError(name);
    }

    private static MethodSite site(String name) {
        MethodRef ref = ref(name);
        return new MethodSite(ref, false, null, name.equals("derived"), List.of());
    }

    private static MethodPolicyChecks.Outcome check(
            Map<String, String> keys, List<MethodSite> methods, NamedBeanCheck beans) {
        return MethodPolicyChecks.check(
                GLOBAL, methods, ConfigLookup.of(keys), beans, Optional::empty, Optional::empty);
    }

    private static final NamedBeanCheck EVERY_NAME_A_BEAN = (context, name, spi) -> {};

    @Test
    void methodKey_overMethodAnnotation_overClassKey_overClassAnnotation_overGlobal() {
        String orders = Orders.class.getName();
        MethodPolicyChecks.Outcome none =
                check(Map.of(), List.of(site("create"), site("update")), EVERY_NAME_A_BEAN);

        assertThat(none.problems()).isEmpty();
        assertThat(none.policies().get(ref("create")).leaseTtl()).isEqualTo(Duration.ofSeconds(50));
        assertThat(none.policies().get(ref("update")).leaseTtl()).isEqualTo(Duration.ofSeconds(40));
        assertThat(none.policies().get(ref("update")).waitTimeout())
                .isEqualTo(Duration.ofSeconds(3));
        assertThat(none.policies().get(ref("update")).completedTtl())
                .isEqualTo(GLOBAL.defaults().completedTtl());

        MethodPolicyChecks.Outcome keyed =
                check(
                        Map.of(
                                orders + "/Idempotent/leaseTtl", "60s",
                                orders + "/create/Idempotent/leaseTtl", "70s"),
                        List.of(site("create"), site("update")),
                        EVERY_NAME_A_BEAN);

        assertThat(keyed.policies().get(ref("create")).leaseTtl())
                .isEqualTo(Duration.ofSeconds(70));
        assertThat(keyed.policies().get(ref("update")).leaseTtl())
                .isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void aBrokenPerMethodKey_isTheOnlyProblem_andNoPolicyIsResolved() {
        MethodPolicyChecks.Outcome outcome =
                check(
                        Map.of(Orders.class.getName() + "/create/Idempotent/leaseTtl", "-5s"),
                        List.of(site("create")),
                        EVERY_NAME_A_BEAN);

        assertThat(outcome.policies()).isEmpty();
        assertThat(outcome.problems())
                .singleElement()
                .asString()
                .startsWith(
                        "Invalid " + Orders.class.getName() + "/create/Idempotent/leaseTtl=-5s: ");
    }

    @Test
    void aRedactorThatIsNoBean_isReportedWithTheMethodAndTheContainersAnswer() {
        MethodPolicyChecks.Outcome outcome =
                check(
                        Map.of(
                                Orders.class.getName() + "/update/Idempotent/redactor",
                                "com.example.Missing"),
                        List.of(site("update")),
                        (context, name, spi) -> {
                            throw new IllegalArgumentException("no bean " + name);
                        });

        assertThat(outcome.problems())
                .containsExactly(
                        "Invalid @Idempotent(redactor=com.example.Missing) on "
                                + ref("update")
                                + " (annotations and per-method configuration keys merged): no"
                                + " bean com.example.Missing");
    }

    @Test
    void aDerivedKey_isRefusedInRefuseMode_andNotOtherwise() {
        IdemkitConfig refuse = global(Map.of("idemkit.method.derived-key", "refuse"));
        List<String> warnings = new ArrayList<>();

        assertThat(
                        DerivedKeyChecks.problems(
                                refuse.derivedKeys(),
                                List.of(site("derived"), site("create")),
                                warnings::add))
                .singleElement()
                .asString()
                .startsWith(ref("derived") + " has no @IdempotencyKey parameter");
        assertThat(
                        DerivedKeyChecks.problems(
                                GLOBAL.derivedKeys(), List.of(site("derived")), warnings::add))
                .isEmpty();
        assertThat(warnings).isEmpty();
    }

    @Test
    void inTransactionCompletion_onAMethodWithoutATransaction_cannotHold() {
        MethodPolicyChecks.Outcome outcome =
                check(Map.of(), List.of(site("book"), site("update")), EVERY_NAME_A_BEAN);

        assertThat(outcome.policies().get(ref("book")).completion())
                .isEqualTo(CompletionMode.IN_TRANSACTION);
        assertThat(outcome.problems())
                .containsExactly(
                        "@Idempotent(completion=in-transaction) on "
                                + ref("book")
                                + " cannot hold: it is neither @Transactional nor a method of an"
                                + " EJB, so it runs in no transaction of its own. Set"
                                + " completion=after-commit there, or fix the cause.");
    }

    @Test
    void inTransactionCompletion_onAResourceMethod_isIgnored() {
        MethodSite resource = new MethodSite(ref("book"), true, null, false, List.of());
        OperationPolicy policy =
                check(Map.of(), List.of(resource), EVERY_NAME_A_BEAN).policies().get(ref("book"));

        assertThat(policy.completion()).isEqualTo(CompletionMode.IN_TRANSACTION);
        assertThat(check(Map.of(), List.of(resource), EVERY_NAME_A_BEAN).problems()).isEmpty();
    }
}
