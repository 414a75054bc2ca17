/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The in-memory store: the zero-configuration default for development and tests.
 */
package io.idemkit.store.memory;
