/**
 * The opt-in admin HTTP API over {@link io.idemkit.admin.IdempotencyAdmin}: a pre-matching JAX-RS
 * filter that a service-loaded {@code Feature} registers only when {@code
 * idemkit.admin.enabled=true}, so that an application that did not ask for it has nothing at those
 * paths at all. Internal, no compatibility guaranteed, except the name of {@link AdminFeature},
 * which an application that turns off JAX-RS service loading lists in {@code getClasses()}.
 */
package io.idemkit.admin.http;
