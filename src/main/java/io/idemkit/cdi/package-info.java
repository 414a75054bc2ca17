/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The CDI glue: the portable extension, which observes the container's events, collects the
 * {@code @Idempotent} methods and the application's beans, and reports at deployment the problems
 * the configuration, the stores and the per-method policy ({@link io.idemkit.policy}) find; and the
 * producers of the store, the engine and the scope resolver.
 */
package io.idemkit.cdi;
