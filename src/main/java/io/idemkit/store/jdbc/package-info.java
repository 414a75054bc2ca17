/**
 * The JDBC idempotency store (contract C12): {@link io.idemkit.store.jdbc.JdbcIdempotencyStore} on
 * an application's own {@code DataSource}, on PostgreSQL, MariaDB or H2, and its {@link
 * io.idemkit.store.jdbc.JdbcStoreSettings}. The DDL of each dialect is a resource of this package.
 *
 * <p>Internal: no compatibility guaranteed.
 */
package io.idemkit.store.jdbc;
