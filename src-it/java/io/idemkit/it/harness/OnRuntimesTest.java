package io.idemkit.it.harness;

import static io.idemkit.it.harness.ItRuntime.LIBERTY;
import static io.idemkit.it.harness.ItRuntime.PAYARA;
import static io.idemkit.it.harness.ItRuntime.WILDFLY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which runtime an execution runs on ({@link ItRuntime#of}, from the pom's property or its
 * absence), and {@link OnRuntimes}: a class or method runs on exactly the runtimes it names and is
 * skipped on the others with a reason that names them.
 */
class OnRuntimesTest {

    @OnRuntimes(value = LIBERTY, because = "only Liberty's")
    static final class OnLiberty {}

    @OnRuntimes(value = WILDFLY, because = "only WildFly's")
    static class OnWildFly {}

    static final class ExtendsOnWildFly extends OnWildFly {}

    @OnRuntimes(value = PAYARA, because = "only Payara's")
    static final class OnPayara {}

    @OnRuntimes(
            value = {LIBERTY, WILDFLY},
            because = "no broker on Payara Micro")
    static final class OnLibertyAndWildFly {}

    @OnRuntimes(
            value = {WILDFLY, PAYARA},
            because = "application data sources")
    static final class OnWildFlyAndPayara {}

    @OnRuntimes(
            value = {LIBERTY, PAYARA},
            because = "a known gap on WildFly")
    static final class OnLibertyAndPayara {}

    static final class Everywhere {
        @OnRuntimes(
                value = {LIBERTY, WILDFLY},
                because = "Grizzly refuses the bytes")
        void notOnPayara() {}

        void unlimited() {}
    }

    /** The property's value ("not set": absent, the default) and where each fixture runs. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // value,   Liberty, WildFly, Payara, L+W,   W+P,   L+P,   method L+W, unlimited
        "liberty,   true,    false,   false,  true,  false, true,  true,        true",
        "wildfly,   false,   true,    false,  true,  true,  false, true,        true",
        "payara,    false,   false,   true,   false, true,  true,  false,       true",
        "not set,   true,    false,   false,  true,  false, true,  true,        true",
    })
    void eachFixture_runsOnExactlyTheRuntimesItNames(
            String value,
            boolean onLiberty,
            boolean onWildFly,
            boolean onPayara,
            boolean onLibertyAndWildFly,
            boolean onWildFlyAndPayara,
            boolean onLibertyAndPayara,
            boolean methodNotOnPayara,
            boolean unlimited)
            throws Exception {
        ItRuntime runtime = ItRuntime.of(value.equals("not set") ? null : value);

        assertThat(enabled(OnLiberty.class, runtime)).isEqualTo(onLiberty);
        assertThat(enabled(OnWildFly.class, runtime)).isEqualTo(onWildFly);
        assertThat(enabled(OnPayara.class, runtime)).isEqualTo(onPayara);
        assertThat(enabled(OnLibertyAndWildFly.class, runtime)).isEqualTo(onLibertyAndWildFly);
        assertThat(enabled(OnWildFlyAndPayara.class, runtime)).isEqualTo(onWildFlyAndPayara);
        assertThat(enabled(OnLibertyAndPayara.class, runtime)).isEqualTo(onLibertyAndPayara);
        assertThat(enabled(Everywhere.class.getDeclaredMethod("notOnPayara"), runtime))
                .isEqualTo(methodNotOnPayara);
        assertThat(enabled(Everywhere.class.getDeclaredMethod("unlimited"), runtime))
                .isEqualTo(unlimited);
        assertThat(enabled(Everywhere.class, runtime)).isTrue();
    }

    @Test
    void thePropertyNotSet_isOpenLiberty_andEachValueIsItsRuntime() {
        assertThat(ItRuntime.of(null)).isEqualTo(LIBERTY);
        assertThat(ItRuntime.of("liberty")).isEqualTo(LIBERTY);
        assertThat(ItRuntime.of("wildfly")).isEqualTo(WILDFLY);
        assertThat(ItRuntime.of("payara")).isEqualTo(PAYARA);
    }

    @Test
    void aValueThatNamesNoRuntime_failsWithTheValidOnes() {
        assertThatThrownBy(() -> ItRuntime.of("tomee"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(
                        "Invalid "
                                + ItRuntime.PROPERTY
                                + "=tomee: must be one of liberty, wildfly, payara");
        assertThatThrownBy(() -> ItRuntime.of("WildFly")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aSkip_namesTheRuntimeItWasSkippedOn_theRuntimesItRunsOn_andWhy() {
        ConditionEvaluationResult result =
                OnRuntimesCondition.evaluate(Optional.of(OnLibertyAndWildFly.class), PAYARA);

        assertThat(result.isDisabled()).isTrue();
        assertThat(result.getReason())
                .contains(
                        "not on Payara Micro, runs on Open Liberty, WildFly only: no broker on"
                                + " Payara Micro");
    }

    @Test
    void aSubclass_doesNotInheritItsSuperclassesRuntimes() {
        assertThat(enabled(OnWildFly.class, LIBERTY)).isFalse();
        assertThat(enabled(ExtendsOnWildFly.class, LIBERTY)).isTrue();
    }

    @Test
    void noElement_isEnabled() {
        assertThat(OnRuntimesCondition.evaluate(Optional.empty(), WILDFLY).isDisabled()).isFalse();
    }

    private static boolean enabled(AnnotatedElement element, ItRuntime runtime) {
        return !OnRuntimesCondition.evaluate(Optional.of(element), runtime).isDisabled();
    }
}
