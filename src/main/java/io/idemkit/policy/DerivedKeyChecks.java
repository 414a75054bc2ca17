package io.idemkit.policy;

import io.idemkit.config.ConfigKeys;
import io.idemkit.config.DerivedKeyMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The deployment's check of method keys derived from all the arguments ({@code
 * idemkit.method.derived-key}, contract C7.1): refuse them all, fail on those whose arguments
 * visibly look volatile, or warn about those. JAX-RS resource methods (keyed by the client's
 * header) and message-driven beans (keyed by their message) are not derived.
 */
public final class DerivedKeyChecks {

    private DerivedKeyChecks() {}

    /**
     * @param mode the configured mode
     * @param methods the {@code @Idempotent} methods the interceptor will run
     * @param warnings receives one warning per method whose derived key looks volatile, in {@code
     *     warn} mode
     * @return the deployment problems
     */
    public static List<String> problems(
            DerivedKeyMode mode, List<MethodSite> methods, Consumer<String> warnings) {
        List<String> problems = new ArrayList<>();
        for (MethodSite site : methods) {
            if (!site.derivesItsKey()) {
                continue;
            }
            MethodRef ref = site.ref();
            if (mode == DerivedKeyMode.REFUSE) {
                problems.add(
                        ref
                                + " has no @IdempotencyKey parameter, so its key would be derived"
                                + " from all its arguments, which "
                                + ConfigKeys.METHOD_DERIVED_KEY
                                + "=refuse forbids. Mark the parameter that names the operation"
                                + " (an order id, a request's key) @IdempotencyKey.");
                continue;
            }
            List<String> suspects = site.volatileLooking();
            if (suspects.isEmpty()) {
                continue;
            }
            String text =
                    ref
                            + " derives its key from all its arguments, and "
                            + String.join("; ", suspects)
                            + ": a value that changes between retries makes every retry a new"
                            + " operation, which runs again. Mark it @IdempotencyIgnored, or give"
                            + " the method an @IdempotencyKey parameter.";
            if (mode == DerivedKeyMode.STRICT) {
                problems.add(text + " (" + ConfigKeys.METHOD_DERIVED_KEY + "=strict)");
            } else {
                warnings.accept("idemkit: " + text);
            }
        }
        return problems;
    }
}
