package io.idemkit.owb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKey;
import io.idemkit.Idempotent;
import io.idemkit.cdi.MethodPolicies;
import io.idemkit.spi.IdempotencyRedactor;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import jakarta.enterprise.inject.se.SeContainer;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The choice of redactor on OpenWebBeans (C4.10), as on Weld ({@code MethodRedactorTest}): the one
 * global bean, a per-method one named by class (here kept out of the global choice with
 * {@code @Typed}), and the deployment errors of an ambiguous global one and a named class that is
 * no bean.
 */
class RedactorSelectionTest {

    private static final StoredResult RESULT = new StoredResult(200, List.of(), new byte[] {1});

    private final OwbDeployment deployment = new OwbDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void globalAndNamedRedactors_reachEachMethodsPolicy() throws Exception {
        SeContainer owb = deployment.start(Ledger.class, Global.class, Named.class);
        MethodPolicies policies = owb.select(MethodPolicies.class).get();

        IdempotencyRedactor plain =
                policies.policyFor(Ledger.class, Ledger.class.getMethod("plain", String.class))
                        .redactor();
        IdempotencyRedactor named =
                policies.policyFor(Ledger.class, Ledger.class.getMethod("named", String.class))
                        .redactor();

        assertThat(plain.redact(RESULT).body()).containsExactly(7);
        assertThat(named.redact(RESULT).body()).containsExactly(9);
    }

    @Test
    void severalGlobalRedactors_failTheDeployment() {
        assertThatThrownBy(() -> deployment.start(Global.class, AlsoGlobal.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains("More than one IdempotencyRedactor bean")
                .contains(Global.class.getName())
                .contains(AlsoGlobal.class.getName());
    }

    @Test
    void namedRedactorThatIsNoBean_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(Ledger.class, Global.class))
                .isInstanceOf(DeploymentException.class);
        assertThat(deployment.deploymentErrors())
                .contains(
                        "Invalid @Idempotent(redactor="
                                + Named.class.getName()
                                + ") on "
                                + Ledger.class.getName()
                                + ".named()")
                .contains("is not a bean of the application");
    }

    /** The application's global redactor. */
    @ApplicationScoped
    public static class Global implements IdempotencyRedactor {
        @Override
        public StoredResult redact(StoredResult result) {
            return new StoredResult(result.status(), result.headers(), new byte[] {7});
        }
    }

    /** A second unqualified redactor. */
    @ApplicationScoped
    public static class AlsoGlobal extends Global {}

    /** A redactor for one method, whose only bean type is its class. */
    @ApplicationScoped
    @Typed(Named.class)
    public static class Named implements IdempotencyRedactor {
        @Override
        public StoredResult redact(StoredResult result) {
            return new StoredResult(result.status(), result.headers(), new byte[] {9});
        }
    }

    /** A bean with one method on the global redactor and one naming its own. */
    @ApplicationScoped
    public static class Ledger {
        @Idempotent
        public String plain(@IdempotencyKey String key) {
            return key;
        }

        @Idempotent(redactor = Named.class)
        public String named(@IdempotencyKey String key) {
            return key;
        }
    }
}
