/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The surface-neutral engine: claim first, run once, complete or release under the claim's
 * fencing token, make duplicates wait and replay, and emit one event per operation. It knows
 * nothing of CDI, JAX-RS or MongoDB; the surfaces and the stores plug into it.
 */
package io.idemkit.core;
