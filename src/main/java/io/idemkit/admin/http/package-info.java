/**
 * The opt-in admin HTTP API over {@link io.idemkit.admin.IdempotencyAdmin}: a pre-matching JAX-RS
 * filter that the service-loaded {@link io.idemkit.rest.IdempotencyAdminFeature} registers only
 * when {@code idemkit.admin.enabled=true}, so that an application that did not ask for it has
 * nothing at those paths at all. Internal, no compatibility guaranteed.
 */
package io.idemkit.admin.http;
