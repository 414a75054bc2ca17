package io.idemkit.cdi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.spi.IdempotencyStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.spi.DeploymentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The MongoDB store's lease rule is checked at deployment for every effective lease (C9): the
 * global one, every annotation's that no per-method key overrides, and every per-method key's. The
 * store never connects here (connections are lazy), so the URI points nowhere.
 */
class MongoLeaseRuleDeploymentTest {

    private static final String NOWHERE = "mongodb://127.0.0.1:1";

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void stop() {
        deployment.close();
    }

    @Test
    void globalLeaseBelowTheRule_failsTheDeploymentNamingBothKeysAndTheMinimum() {
        deployment
                .set("idemkit.mongo.uri", NOWHERE)
                .set("idemkit.mongo.timeout", "5s")
                .set("idemkit.lease-ttl", "10s");

        assertThatThrownBy(deployment::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid idemkit.lease-ttl=10s: with the MongoDB store")
                .hasMessageContaining("idemkit.mongo.timeout=5s")
                .hasMessageContaining("Set it to 18s or more");
    }

    @Test
    void annotationLeaseBelowTheRule_failsTheDeploymentNamingTheMethod() {
        deployment.set("idemkit.mongo.uri", NOWHERE);

        assertThatThrownBy(() -> deployment.start(ShortLease.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid @Idempotent(leaseTtl=\"3s\") on "
                                + ShortLease.class.getName()
                                + ".pay(): with the MongoDB store")
                .hasMessageContaining("Set it to 18s or more");
    }

    @Test
    void typeLevelLeaseBelowTheRule_failsTheDeployment() {
        deployment.set("idemkit.mongo.uri", NOWHERE).set("idemkit.mongo.timeout", "1s");

        assertThatThrownBy(() -> deployment.start(ShortLeaseType.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid @Idempotent(leaseTtl=\"5s\") on ")
                .hasMessageContaining("Set it to 6s or more");
    }

    @Test
    void aMethodKeyOverridingTheAnnotationsShortLease_makesTheDeploymentValid() {
        deployment
                .set("idemkit.mongo.uri", NOWHERE)
                .set(ShortLease.class.getName() + "/pay/Idempotent/leaseTtl", "20s");

        IdempotencyStore store =
                deployment.start(ShortLease.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("mongodb");
    }

    @Test
    void aMethodKeyBelowTheRule_failsTheDeploymentNamingTheKey() {
        deployment
                .set("idemkit.mongo.uri", NOWHERE)
                .set(ShortLease.class.getName() + "/pay/Idempotent/leaseTtl", "4s");

        assertThatThrownBy(() -> deployment.start(ShortLease.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid "
                                + ShortLease.class.getName()
                                + "/pay/Idempotent/leaseTtl=4s: with the MongoDB store")
                .message()
                .doesNotContain("@Idempotent(leaseTtl=\"3s\")");
    }

    @Test
    void aClassKeyOverridingTheTypesShortLease_makesTheDeploymentValid() {
        deployment
                .set("idemkit.mongo.uri", NOWHERE)
                .set("idemkit.mongo.timeout", "1s")
                .set(ShortLeaseType.class.getName() + "/Idempotent/leaseTtl", "10s");

        IdempotencyStore store =
                deployment.start(ShortLeaseType.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("mongodb");
    }

    @Test
    void lowerTimeout_makesAShortGlobalLeaseValid() {
        deployment
                .set("idemkit.mongo.uri", NOWHERE)
                .set("idemkit.mongo.timeout", "200ms")
                .set("idemkit.lease-ttl", "4s");

        IdempotencyStore store = deployment.start().select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("mongodb");
    }

    @Test
    void inMemoryStore_isNotHeldToTheMongoRule() {
        deployment.set("idemkit.store", "memory").set("idemkit.lease-ttl", "1s");

        IdempotencyStore store =
                deployment.start(ShortLease.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("memory");
    }

    /** A method whose lease the MongoDB store cannot keep with the default timeout. */
    @ApplicationScoped
    public static class ShortLease {
        @Idempotent(leaseTtl = "3s")
        public void pay() {}
    }

    /** A type-level lease below the rule for a 1 s timeout. */
    @ApplicationScoped
    @Idempotent(leaseTtl = "5s")
    public static class ShortLeaseType {
        public void pay() {}
    }
}
