/**
 * The MongoDB idempotency store (contract C9): {@link io.idemkit.store.mongo.MongoIdempotencyStore}
 * and its {@link io.idemkit.store.mongo.MongoStoreSettings}.
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.store.mongo;
