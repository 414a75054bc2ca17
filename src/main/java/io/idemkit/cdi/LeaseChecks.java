package io.idemkit.cdi;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.DurationFormat;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.IdempotentPolicy;
import io.idemkit.config.PerMethodConfig;
import io.idemkit.core.OperationPolicy;
import io.idemkit.store.mongo.MongoLeaseRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * The deployment's checks of leases against what they must outlast, once every method's policy is
 * resolved: the MongoDB store's rule (C9); the message surface's (C11.4) is in {@link
 * MessageChecks}. Each returns one message per broken rule, naming where the lease was set.
 */
final class LeaseChecks {

    /**
     * An annotation's own lease, kept for the store-specific check.
     *
     * @param text the member's text
     * @param lease its value
     * @param where the annotated class or method
     */
    record AnnotatedLease(String text, Duration lease, String where) {}

    /** Leases under this are warned about at deployment (the reference's A§4.8). */
    static final Duration SHORT_LEASE = Duration.ofSeconds(5);

    private LeaseChecks() {}

    /**
     * Leases under {@link #SHORT_LEASE}: allowed, and said once at deployment, since a GC pause, a
     * slow store call or clock skew between servers can then let a duplicate take the key over
     * while the first call still runs.
     *
     * @return one warning per global lease or method whose effective lease is that short
     */
    static List<String> shortLeases(
            IdemkitConfig read, Map<MethodPolicies.MethodRef, OperationPolicy> policies) {
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
     * The MongoDB store's lease rule ({@link MongoLeaseRule}) for every effective lease: the global
     * one, every annotation's, and every per-method configuration key's ({@link PerMethodConfig}).
     */
    static List<String> mongo(
            IdemkitConfig read,
            Duration timeout,
            List<AnnotatedLease> annotated,
            List<MethodPolicies.MethodRef> methods,
            Map<MethodPolicies.MethodRef, OperationPolicy> policies,
            Config config) {
        List<String> problems = new ArrayList<>();
        Duration global = read.defaults().leaseTtl();
        MongoLeaseRule.problem(
                        ConfigKeys.LEASE_TTL + "=" + DurationFormat.format(global), global, timeout)
                .ifPresent(problems::add);
        for (AnnotatedLease lease : annotated) {
            MongoLeaseRule.problem(
                            "@Idempotent(leaseTtl=\"" + lease.text() + "\") on " + lease.where(),
                            lease.lease(),
                            timeout)
                    .ifPresent(problems::add);
        }
        for (MethodPolicies.MethodRef ref : methods) {
            String clazz = ref.beanClass().getName();
            String method = ref.method().getName();
            String methodKey = PerMethodConfig.methodKey(clazz, method, IdempotentPolicy.LEASE_TTL);
            String key =
                    config.getOptionalValue(methodKey, String.class).isPresent()
                            ? methodKey
                            : PerMethodConfig.classKey(clazz, IdempotentPolicy.LEASE_TTL);
            OperationPolicy policy = policies.get(ref);
            if (policy != null && config.getOptionalValue(key, String.class).isPresent()) {
                MongoLeaseRule.problem(
                                key + "=" + DurationFormat.format(policy.leaseTtl()),
                                policy.leaseTtl(),
                                timeout)
                        .ifPresent(problems::add);
            }
        }
        return problems;
    }
}
