/**
 * Effective keys and request fingerprints, byte-identical to the idemkit Python reference ({@code
 * idemkit/core/fingerprint.py}), so that Java and Python services can share one store (contract C1,
 * C6.9).
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.core.hash;
