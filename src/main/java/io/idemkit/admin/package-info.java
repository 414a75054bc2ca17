/**
 * Operating the records: {@link io.idemkit.admin.IdempotencyAdmin}, the bean an operator's tool
 * injects to look records up, erase them and purge expired ones, is public API (semantic
 * versioning, like {@link io.idemkit}). Everything else here is internal, no compatibility
 * guaranteed: the opt-in admin HTTP API over that bean, a pre-matching JAX-RS filter that a
 * service-loaded {@code Feature} registers only when {@code idemkit.admin.enabled=true}, so that an
 * application that did not ask for it has nothing at those paths at all.
 */
package io.idemkit.admin;
