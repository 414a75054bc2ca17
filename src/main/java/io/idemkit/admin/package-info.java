/**
 * Operating the records: {@link io.idemkit.admin.IdempotencyAdmin}, the bean an operator's tool
 * injects to look records up, erase them and purge expired ones. Public API (semantic versioning,
 * like {@link io.idemkit}); the opt-in HTTP API over it is internal and lives in {@code
 * io.idemkit.admin.http}.
 */
package io.idemkit.admin;
