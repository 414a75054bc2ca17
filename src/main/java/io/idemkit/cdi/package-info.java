/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The CDI glue: the portable extension that validates configuration and annotations at
 * deployment, and the producers of the store, the engine and the scope resolver.
 */
package io.idemkit.cdi;
