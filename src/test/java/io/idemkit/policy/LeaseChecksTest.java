package io.idemkit.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.OperationPolicy;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Short leases are allowed and said at deployment (the reference's A§4.8: under 5 s). */
class LeaseChecksTest {

    private static IdemkitConfig config(Map<String, String> properties) {
        return ConfigReader.read(
                new SmallRyeConfigBuilder()
                        .withSources(new PropertiesConfigSource(properties, "test", 500))
                        .build());
    }

    private static MethodRef ref(String name) throws Exception {
        return new MethodRef(Beans.class, Beans.class.getDeclaredMethod(name));
    }

    /** Three methods to hang policies on. */
    static class Beans {
        void quick() {}

        void quicker() {}

        void slow() {}
    }

    private static OperationPolicy lease(IdemkitConfig config, Duration lease) {
        OperationPolicy d = config.defaults();
        return new OperationPolicy(
                lease, d.completedTtl(), d.waitTimeout(), d.onStorageError(), d.cacheable());
    }

    @Test
    void aShortGlobalLease_andAShortMethodLease_areEachWarnedOnce() throws Exception {
        IdemkitConfig config = config(Map.of("idemkit.lease-ttl", "2s"));

        assertThat(
                        LeaseChecks.shortLeases(
                                config,
                                Map.of(
                                        ref("quick"), lease(config, Duration.ofSeconds(2)),
                                        ref("quicker"), lease(config, Duration.ofMillis(300)),
                                        ref("slow"), lease(config, Duration.ofSeconds(30)))))
                .containsExactly(
                        "idemkit: the lease of idemkit.lease-ttl is 2s, under 5s: a GC pause, a slow"
                                + " store call or clock skew between servers can let a duplicate"
                                + " take the key over while the first call still runs. Prefer 5s"
                                + " or more; the method surface's heartbeat renews the lease of"
                                + " long calls.",
                        "idemkit: the lease of "
                                + Beans.class.getName()
                                + ".quicker() is 300ms, under 5s: a GC pause, a slow store call or"
                                + " clock skew between servers can let a duplicate take the key"
                                + " over while the first call still runs. Prefer 5s or more; the"
                                + " method surface's heartbeat renews the lease of long calls.");
    }

    @Test
    void leasesOfFiveSecondsOrMore_areNotWarned() throws Exception {
        IdemkitConfig config = config(Map.of());

        assertThat(
                        LeaseChecks.shortLeases(
                                config, Map.of(ref("slow"), lease(config, Duration.ofSeconds(5)))))
                .isEmpty();
    }
}
