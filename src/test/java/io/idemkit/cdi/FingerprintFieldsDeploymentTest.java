package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.DeploymentException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The fingerprint fields of a resource method (C6.11) are checked at deployment, wherever they are
 * set: a setting that names no field, or a malformed path, fails it with a message that names the
 * method or the key, the value and the rule.
 */
class FingerprintFieldsDeploymentTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void singleTenant() {
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void namedFields_deploy() {
        assertThat(deployment.start(Charges.class).select(Charges.class).get()).isNotNull();
    }

    @Test
    void anEmptyNameInTheAnnotation_failsTheDeployment_namingMethodAndRule() {
        assertThatThrownBy(() -> deployment.start(EmptyName.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "Invalid @Idempotent(fingerprintFields=\"amount,\": an empty field path")
                .hasMessageContaining(EmptyName.class.getName() + ".create()");
    }

    @Test
    void aMalformedPathInTheAnnotation_failsTheDeployment() {
        assertThatThrownBy(() -> deployment.start(Malformed.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("'order..id' is not a field path")
                .hasMessageContaining(Malformed.class.getName() + ".create()");
    }

    @Test
    void aPerMethodKeyNamingNoField_failsTheDeployment() {
        String key = Charges.class.getName() + "/create/Idempotent/fingerprintFields";
        deployment.set(key, "");

        assertThatThrownBy(() -> deployment.start(Charges.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid " + key + "=: names no field");
    }

    @Test
    void aMalformedGlobalKey_failsTheDeployment() {
        deployment.set("idemkit.fingerprint.fields", "amount,.id");

        assertThatThrownBy(() -> deployment.start(Charges.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid idemkit.fingerprint.fields=amount,.id: '.id' is not a field path");
    }

    /** A resource that names the fields of its body. */
    @ApplicationScoped
    @Path("charges")
    public static class Charges {
        @POST
        @Idempotent(fingerprintFields = {"amount", "order.id"})
        public String create() {
            return "created";
        }
    }

    /** A resource that names an empty field. */
    @ApplicationScoped
    @Path("empty")
    public static class EmptyName {
        @POST
        @Idempotent(fingerprintFields = {"amount", ""})
        public String create() {
            return "created";
        }
    }

    /** A resource that names a path with an empty member name. */
    @ApplicationScoped
    @Path("malformed")
    public static class Malformed {
        @POST
        @Idempotent(fingerprintFields = "order..id")
        public String create() {
            return "created";
        }
    }
}
