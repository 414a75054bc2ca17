package io.idemkit;

import java.util.Locale;
import java.util.Objects;

/**
 * The idempotency store failed or could not be reached. Stores raise only this type, carrying the
 * store's own message, never a raw driver exception. Under {@code
 * idemkit.on-storage-error=fail-closed} (the default) the operation is refused; retry later. HTTP:
 * {@code 503 urn:idemkit:storage-error} with {@code Retry-After}.
 *
 * <p>{@link #kind()} says which kind of failure it was, because they mean different things for the
 * key; the {@code storage_error} {@link IdempotencyEvent} carries the same kind.
 */
public class IdempotencyStorageException extends IdempotencyException {

    private static final long serialVersionUID = 1L;

    /** What kind of store failure happened, and so what it means for the key. */
    public enum Kind {
        /**
         * The store could not be reached, or did not answer within its timeout. Nothing is known to
         * have been written: the key is as it was.
         */
        UNREACHABLE,
        /**
         * The store applied a write but could not confirm it as durable in time (a MongoDB write
         * concern that did not confirm, for example while secondaries lag). A claim may have been
         * written: it then holds the key until its lease ends.
         */
        WRITE_NOT_CONFIRMED,
        /**
         * The store refused the request as given: it is full, or the result is larger than it can
         * hold. The same request fails again until the cause is fixed.
         */
        REFUSED,
        /**
         * Another transaction held what the operation needed, past the store's bound: a row lock (a
         * completion inside a business transaction holds its record's row until the commit), a
         * deadlock, a serialization failure, or a claim that kept meeting changes. The store is up
         * and nothing was written: the key is busy, not the store down. The engine treats a
         * contended claim as a call in flight (it waits, and claims again, up to {@code
         * wait-timeout}; then {@link IdempotencyInProgressException}) and never runs the operation
         * unprotected on it, whatever {@code idemkit.on-storage-error} says (C4.6).
         */
        CONTENDED,
        /** Any other failure of the store. */
        FAILED;

        /**
         * @return the language-neutral name, for example {@code write_not_confirmed}, as used in
         *     metric and span attributes
         */
        public String attributeValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What kind of store failure this was. */
    private final Kind kind;

    /**
     * A failure of kind {@link Kind#FAILED}.
     *
     * @param message what failed, free of keys and payloads
     */
    public IdempotencyStorageException(String message) {
        this(Kind.FAILED, message, null);
    }

    /**
     * A failure of kind {@link Kind#FAILED}.
     *
     * @param message what failed, free of keys and payloads
     * @param cause the store's underlying failure
     */
    public IdempotencyStorageException(String message, Throwable cause) {
        this(Kind.FAILED, message, cause);
    }

    /**
     * @param kind which kind of failure it was
     * @param message what failed, free of keys and payloads
     * @param cause the store's underlying failure, or {@code null}
     */
    public IdempotencyStorageException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * @return which kind of failure it was
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The kind of any failure a store call threw: a store should throw only this exception, and
     * anything else counts as {@link Kind#FAILED}.
     *
     * @param failure what a store call threw
     * @return its kind
     */
    public static Kind kindOf(Throwable failure) {
        return failure instanceof IdempotencyStorageException storage
                ? storage.kind()
                : Kind.FAILED;
    }
}
