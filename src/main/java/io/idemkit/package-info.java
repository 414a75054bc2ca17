/**
 * The public API of idemkit for Jakarta EE: the {@link io.idemkit.Idempotent} annotation, the
 * {@link io.idemkit.IdempotencyKey} parameter marker, the {@link
 * io.idemkit.IdempotencyScopeProvider} tenant hook, the {@link io.idemkit.IdempotencyEvent}
 * observability event, the names idemkit puts on the wire ({@link io.idemkit.IdempotencyWire}: its
 * headers and problem types, which the server, the client half and the OpenAPI document share) and
 * the exception hierarchy rooted at {@link io.idemkit.IdempotencyException}.
 *
 * <p>Everything in this package is covered by semantic versioning. So are the store SPI in {@link
 * io.idemkit.spi}, the names a REST application writes in {@link io.idemkit.rest}, the calling
 * side's public types in {@link io.idemkit.client} and the admin bean {@link
 * io.idemkit.admin.IdempotencyAdmin}; every other package and class is internal
 * (docs/public-api.md). This package imports nothing else of the library.
 */
package io.idemkit;
