package io.idemkit.policy;

import io.idemkit.config.IdemkitConfig;
import io.idemkit.config.TransactionTimeout;
import io.idemkit.core.OperationPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The deployment's check of every {@code @Idempotent} method's policy, in one pass: every
 * per-method key, then each method's merged policy, then, when all of those resolve, the rules that
 * hold between them (the message surface's, C11; derived keys, C7.1; the named beans, C4.10 and
 * C6.1; completion in the transaction, C13). Plain code over plain inputs: the CDI glue hands it
 * the methods and the container's answers, and reports what it returns.
 */
public final class MethodPolicyChecks {

    /**
     * @param policies every method's resolved policy; empty when a per-method key is invalid
     * @param problems the deployment problems, each in the house format
     * @param warnings the warnings to log (a derived key that looks volatile, in {@code warn} mode)
     */
    public record Outcome(
            Map<MethodRef, OperationPolicy> policies,
            List<String> problems,
            List<String> warnings) {

        /** Copies the components. */
        public Outcome {
            policies = Map.copyOf(policies);
            problems = List.copyOf(problems);
            warnings = List.copyOf(warnings);
        }
    }

    private MethodPolicyChecks() {}

    /**
     * @param problems where the problem of each method whose merged policy does not resolve goes
     * @return the merged policy of each of {@code methods} that resolves
     */
    static Map<MethodRef, OperationPolicy> policies(
            IdemkitConfig read,
            List<MethodSite> methods,
            ConfigLookup config,
            List<String> problems) {
        Map<MethodRef, OperationPolicy> policies = new LinkedHashMap<>();
        for (MethodSite site : methods) {
            MethodRef ref = site.ref();
            try {
                policies.put(
                        ref,
                        IdempotentPolicy.resolve(
                                ref.beanClass(), ref.method(), read.defaults(), config));
            } catch (IllegalArgumentException e) {
                problems.add(
                        "Invalid @Idempotent("
                                + e.getMessage()
                                + ") on "
                                + ref
                                + " (annotations and per-method configuration keys merged)");
            }
        }
        return policies;
    }

    /**
     * @param read the validated global configuration
     * @param methods the application's {@code @Idempotent} methods
     * @param config the configuration, for the per-class and per-method keys
     * @param beans answers whether a name is one bean of the application
     * @param serverTimeout the server's JTA transaction timeout, asked only when a message-driven
     *     bean is checked
     * @param storeProblem why the chosen store cannot complete records inside a transaction
     * @return the resolved policies, the problems and the warnings
     */
    public static Outcome check(
            IdemkitConfig read,
            List<MethodSite> methods,
            ConfigLookup config,
            NamedBeanCheck beans,
            Supplier<Optional<TransactionTimeout>> serverTimeout,
            Supplier<Optional<String>> storeProblem) {
        List<String> problems = new ArrayList<>(PerMethodConfig.validate(config));
        Map<MethodRef, OperationPolicy> policies = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        if (problems.isEmpty()) {
            policies.putAll(policies(read, methods, config, problems));
        }
        if (problems.isEmpty()) {
            problems.addAll(MessageChecks.problems(read, methods, policies, config, serverTimeout));
            problems.addAll(DerivedKeyChecks.problems(read.derivedKeys(), methods, warnings::add));
            problems.addAll(BeanChoiceChecks.redactors(beans, methods, config));
            problems.addAll(
                    BeanChoiceChecks.keyExtractors(beans, methods, config, read.keyDefaults()));
            problems.addAll(CompletionChecks.problems(methods, policies, storeProblem));
        }
        return new Outcome(policies, problems, warnings);
    }
}
