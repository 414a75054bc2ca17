package io.idemkit.policy;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.DurationFormat;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.OperationPolicy;
import io.idemkit.store.StoreLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The deployment's checks of leases, once every method's policy is resolved: short leases are
 * warned of, and every effective lease, named where it was set, is handed to the chosen store for
 * its own rule (the MongoDB store's, C9); the message surface's rule (C11.4) is in {@link
 * MessageChecks}.
 */
public final class LeaseChecks {

    /**
     * An annotation's own lease, kept for the store's own check.
     *
     * @param text the member's text
     * @param lease its value
     * @param where the annotated class or method
     * @param overriddenBy the per-method configuration keys ({@link PerMethodConfig}) any one of
     *     which, set, overrides this lease wherever it would apply, so that it is no effective
     *     lease: the method's key for a method's own lease, the class's key for a class's
     */
    public record AnnotatedLease(
            String text, Duration lease, String where, List<String> overriddenBy) {

        /** Copies the keys. */
        public AnnotatedLease {
            overriddenBy = List.copyOf(overriddenBy);
        }
    }

    /** Leases under this are warned about at deployment (the reference's A§4.8). */
    public static final Duration SHORT_LEASE = Duration.ofSeconds(5);

    private LeaseChecks() {}

    /**
     * Leases under {@link #SHORT_LEASE}: allowed, and said once at deployment, since a GC pause, a
     * slow store call or clock skew between servers can then let a duplicate take the key over
     * while the first call still runs.
     *
     * @return one warning per global lease or method whose effective lease is that short
     */
    public static List<String> shortLeases(
            IdemkitConfig read, Map<MethodRef, OperationPolicy> policies) {
        List<String> warnings = new ArrayList<>();
        Duration global = read.defaults().leaseTtl();
        if (global.compareTo(SHORT_LEASE) < 0) {
            warnings.add(shortLease(ConfigKeys.LEASE_TTL, global));
        }
        policies.entrySet().stream()
                .filter(e -> e.getValue().leaseTtl().compareTo(SHORT_LEASE) < 0)
                .filter(e -> !e.getValue().leaseTtl().equals(global))
                .map(e -> shortLease(e.getKey().toString(), e.getValue().leaseTtl()))
                .sorted()
                .forEach(warnings::add);
        return warnings;
    }

    private static String shortLease(String where, Duration lease) {
        return "idemkit: the lease of "
                + where
                + " is "
                + DurationFormat.format(lease)
                + ", under "
                + DurationFormat.format(SHORT_LEASE)
                + ": a GC pause, a slow store call or clock skew between servers can let a"
                + " duplicate take the key over while the first call still runs. Prefer 5s or"
                + " more; the method surface's heartbeat renews the lease of long calls.";
    }

    /**
     * Every effective lease, for the store's own rule: the global one, every annotation's, and
     * every per-method configuration key's ({@link PerMethodConfig}), each named where it was set.
     */
    public static List<StoreLease> effective(
            IdemkitConfig read,
            List<AnnotatedLease> annotated,
            List<MethodSite> methods,
            Map<MethodRef, OperationPolicy> policies,
            ConfigLookup config) {
        List<StoreLease> leases = new ArrayList<>();
        Duration global = read.defaults().leaseTtl();
        leases.add(
                new StoreLease(ConfigKeys.LEASE_TTL + "=" + DurationFormat.format(global), global));
        for (AnnotatedLease lease : annotated) {
            if (lease.overriddenBy().stream().anyMatch(config::isSet)) {
                continue; // a per-method key's lease applies instead, added below
            }
            leases.add(
                    new StoreLease(
                            "@Idempotent(leaseTtl=\"" + lease.text() + "\") on " + lease.where(),
                            lease.lease()));
        }
        for (MethodSite site : methods) {
            MethodRef ref = site.ref();
            String clazz = ref.beanClass().getName();
            String method = ref.method().getName();
            String methodKey = PerMethodConfig.methodKey(clazz, method, IdempotentPolicy.LEASE_TTL);
            String key =
                    config.isSet(methodKey)
                            ? methodKey
                            : PerMethodConfig.classKey(clazz, IdempotentPolicy.LEASE_TTL);
            OperationPolicy policy = policies.get(ref);
            if (policy != null && config.isSet(key)) {
                leases.add(
                        new StoreLease(
                                key + "=" + DurationFormat.format(policy.leaseTtl()),
                                policy.leaseTtl()));
            }
        }
        return leases;
    }
}
