/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The MicroProfile Health readiness check {@code idemkit-store}. {@link
 * io.idemkit.health.StoreProbe} knows nothing of MicroProfile; {@link
 * io.idemkit.health.StoreReadinessCheck} is registered only when the application sees the
 * MicroProfile Health API.
 */
package io.idemkit.health;
