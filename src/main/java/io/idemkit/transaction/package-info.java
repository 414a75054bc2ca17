/**
 * Internal: no compatibility guaranteed.
 *
 * <p>The surfaces' side of Jakarta Transactions: the after-commit hooks that complete a record only
 * once the business transaction commits and release it on a rollback (C7, C11.2); completion inside
 * the business transaction, whose inner interceptor runs inside the transaction interceptor (C13);
 * and the server's transaction timeout, read for the lease rule of message-driven beans (C11.4).
 * Only {@code JtaTransactionHooks} uses Jakarta Transactions, and it is loaded only when the API is
 * there.
 */
package io.idemkit.transaction;
