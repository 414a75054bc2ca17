/**
 * The public API of idemkit for Jakarta EE: the {@link io.idemkit.Idempotent} annotation, the
 * {@link io.idemkit.IdempotencyKey} parameter marker, the {@link
 * io.idemkit.IdempotencyScopeProvider} tenant hook, the {@link io.idemkit.IdempotencyEvent}
 * observability event and the exception hierarchy rooted at {@link
 * io.idemkit.IdempotencyException}.
 *
 * <p>Everything in this package is covered by semantic versioning. The store SPI lives in {@link
 * io.idemkit.spi}; every other package is internal.
 */
package io.idemkit;
