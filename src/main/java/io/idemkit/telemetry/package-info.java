/**
 * Internal: no compatibility guaranteed.
 *
 * <p>Metrics and traces through OpenTelemetry (MicroProfile Telemetry): the counter {@code
 * idemkit.operations} and the histogram {@code idemkit.operation.duration}, fed from the one {@code
 * IdempotencyEvent} per operation; the decision and effective key on the current span; and one span
 * per store call, through the engine's {@link io.idemkit.core.StoreDecorator}. Every class here
 * uses OpenTelemetry types, and the extension registers them only when the application sees the
 * OpenTelemetry API.
 */
package io.idemkit.telemetry;
