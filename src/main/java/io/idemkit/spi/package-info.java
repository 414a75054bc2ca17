/**
 * The store SPI: what a backend must do so that idemkit can keep its promises on it.
 *
 * <p>A store keeps one {@link io.idemkit.spi.IdempotencyRecord} per effective key and offers the
 * five conditional, atomic operations of {@link io.idemkit.spi.IdempotencyStore}. Every lease and
 * expiry decision is made on the store's own clock. A new store must pass the store contract suite
 * ({@code io.idemkit.testkit.IdempotencyStoreContract} in the {@code tests} classifier jar) before
 * it ships.
 *
 * <p>It also holds the three hooks an application may implement as CDI beans, since each works on
 * what the store keeps or on the key it is kept under: {@link io.idemkit.spi.MethodResultCodec},
 * which turns a method's return value into stored bytes and back; {@link
 * io.idemkit.spi.IdempotencyRedactor}, which rewrites the copy of a result that is stored (contract
 * C4.10); and {@link io.idemkit.spi.IdempotencyKeyExtractor}, which takes a JAX-RS request's key
 * from somewhere other than a header (C6.1).
 *
 * <p>This package is covered by semantic versioning.
 */
package io.idemkit.spi;
