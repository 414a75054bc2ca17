/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The per-method policy: how an {@code @Idempotent} method's annotation members, its per-class
 * and per-method configuration keys ({@link io.idemkit.policy.PerMethodConfig}) and the global
 * {@code idemkit.*} values merge into its operation policy, its HTTP key policy and its message
 * policy, and the deployment's checks of those (C4.10, C6.1, C7.1, C11, C13). Plain code over plain
 * inputs (an annotation, a {@link io.idemkit.policy.ConfigLookup}, {@link
 * io.idemkit.policy.MethodSite}s): it knows no CDI container, so it is tested without one. The CDI
 * glue hands it the methods and the container's answers and reports the problems it returns; the
 * surfaces ask it for a method's resolved policy.
 */
package io.idemkit.policy;
