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
 * The Redis store's lease rule (at least twice {@code idemkit.redis.timeout}) is checked at
 * deployment for every effective lease, through the CDI glue: the store is chosen by its URI alone,
 * which points nowhere (the deployment's eviction check then warns, and the store connects lazily).
 */
class RedisLeaseRuleDeploymentTest {

    private static final String NOWHERE = "redis://127.0.0.1:1";

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void stop() {
        deployment.close();
    }

    @Test
    void aLeaseBelowTwiceTheTimeout_failsTheDeploymentNamingTheMethodAndTheMinimum() {
        deployment.set("idemkit.redis.uri", NOWHERE).set("idemkit.redis.timeout", "3s");

        assertThatThrownBy(() -> deployment.start(ShortLease.class))
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining(
                        "Invalid @Idempotent(leaseTtl=\"5s\") on "
                                + ShortLease.class.getName()
                                + ".pay(): with the Redis store a lease must be at least 2 ×"
                                + " idemkit.redis.timeout = 6s")
                .hasMessageContaining("Set it to 6s or more, or lower idemkit.redis.timeout.");
    }

    @Test
    void aMethodKeyOverridingTheShortLease_makesTheDeploymentValid_andPicksRedis() {
        deployment
                .set("idemkit.redis.uri", NOWHERE)
                .set("idemkit.redis.timeout", "3s")
                .set(ShortLease.class.getName() + "/pay/Idempotent/leaseTtl", "6s");

        IdempotencyStore store =
                deployment.start(ShortLease.class).select(IdempotencyStore.class).get();

        assertThat(store.name()).isEqualTo("redis");
    }

    /** A method whose lease the Redis store cannot keep with a 3 s timeout. */
    @ApplicationScoped
    public static class ShortLease {
        @Idempotent(leaseTtl = "5s")
        public void pay() {}
    }
}
