/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The opt-in admin HTTP API over {@link io.idemkit.IdempotencyAdmin}: a pre-matching JAX-RS
 * filter that a service-loaded {@code Feature} registers only when {@code idemkit.admin.enabled=
 * true}, so that an application that did not ask for it has nothing at those paths at all.
 */
package io.idemkit.admin;
