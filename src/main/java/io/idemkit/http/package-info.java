/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The HTTP surface (contract C6): a JAX-RS filter pair, bound by a {@code DynamicFeature} to the
 * resource methods that carry {@code @Idempotent}. It turns a request into an {@code Operation},
 * hands it to the engine, and turns the engine's answer back into a response; it holds no
 * idempotency logic of its own.
 */
package io.idemkit.http;
