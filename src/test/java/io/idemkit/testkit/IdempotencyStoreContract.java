package io.idemkit.testkit;

import io.idemkit.spi.IdempotencyStore;
import java.time.Duration;

/**
 * The store contract suite (contract C2, C3): what every {@link IdempotencyStore} must do. Extend
 * it in a test of your store and implement {@link #store()} and {@link #elapse(Duration)}; a store
 * that can hold raw unreadable data also overrides {@link #plantUnreadableRecord(String)}, one that
 * can write raw records {@link #plantRecord(io.idemkit.spi.IdempotencyRecord)}, one with a result
 * size limit {@link #resultTooLargeToStore()}, and one that cannot purge on demand {@link
 * #purgesOnDemand()}.
 *
 * <p>Each test uses fresh random keys, so the suite can run against a shared, persistent store.
 * Leases and TTLs are multiples of {@link #leaseUnit()}, and every check that a lease is still live
 * happens well inside it, so stores on a real clock pass on a loaded machine.
 *
 * <p>The suite is a chain of package-private classes, one topic each, and this class is its end;
 * JUnit and jqwik run every inherited test:
 *
 * <ol>
 *   <li>{@code StoreContractSupport}: the hooks above and the shared fixtures, no tests;
 *   <li>{@code ClaimCompleteReleaseContract}: claim, complete and release (C2, C3);
 *   <li>{@code LeaseAndFencingContract}: leases, reclaim, fencing, renew, the completed TTL and the
 *       claim under concurrency (C2, C3);
 *   <li>{@code AwaitAndRecordsContract}: awaitCompletion, records of another fingerprint version,
 *       unreadable records, find, delete, health and purge (C3);
 *   <li>{@code KeyAndClaimInputRulesContract} and {@code FencedCallInputRulesContract}: the input
 *       rules of {@link IdempotencyStore}'s Javadoc;
 *   <li>{@code RandomCallsContract}: random arguments against {@link StoreReferenceModel} (jqwik).
 * </ol>
 */
public abstract class IdempotencyStoreContract extends RandomCallsContract {}
