package io.idemkit.store.mongo;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.MongoWriteException;
import io.idemkit.IdempotencyException;
import io.idemkit.IdempotencyStorageException;
import java.util.function.Supplier;

/**
 * Turns what the MongoDB driver throws into the SPI's {@link IdempotencyStorageException}, with the
 * driver's message and never the key, and tells which kind of failure it was: a write the write
 * concern did not confirm (the write may have landed: a claim then holds the key until its lease
 * ends), a server that could not be reached in time (nothing is known to be written), or another
 * failure. It also recognizes the duplicate key that starts a claim's takeover.
 */
final class DriverFailures {

    private static final int WRITE_CONCERN_FAILED = 64;
    private static final int SHARD_KEY_NOT_FOUND = 61;

    /** Appended to the message of a write the router could not target on the shard key. */
    static final String WRONG_SHARD_KEY =
            " The collection is sharded on a key other than _id: every claim is an upsert that"
                    + " names only _id, which the router cannot target. Shard it on {_id: 1} or"
                    + " {_id: \"hashed\"}, or point idemkit.mongo.collection at another collection.";

    /**
     * Appended to the message of a write the primary applied but the write concern did not confirm.
     */
    static final String WRITE_NOT_CONFIRMED =
            " The primary applied the write, but the write concern (idemkit.mongo.write-concern)"
                    + " did not confirm it within idemkit.mongo.timeout: secondaries lag or are"
                    + " down. A claim may then have been written: it holds the key until its lease"
                    + " ends, and under fail-open the operation runs unprotected meanwhile.";

    /** Appended to the message of a failure to reach the server in time. */
    static final String UNREACHABLE =
            " MongoDB is unreachable or slower than idemkit.mongo.timeout: nothing is known to"
                    + " have been written. Under fail-closed the operation is refused; under"
                    + " fail-open it runs unprotected.";

    private DriverFailures() {}

    /**
     * Runs one store operation, letting the library's own exceptions through and translating every
     * other one. An interrupted driver call keeps the thread's interrupt flag set.
     *
     * @param operation the operation's name, for the message
     * @param key the key it works on, kept out of the message; {@code null} if none
     */
    static <T> T translated(String operation, String key, Supplier<T> body) {
        try {
            return body.get();
        } catch (IdempotencyException e) {
            throw e;
        } catch (MongoInterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure(operation, key, e);
        } catch (RuntimeException e) {
            throw failure(operation, key, e);
        }
    }

    /**
     * Runs a {@link #translated} call in a wait, where an interrupted driver call becomes the
     * {@link InterruptedException} the wait declares (and the interrupt flag is cleared, as usual).
     */
    static <T> T interruptibly(Supplier<T> translatedCall) throws InterruptedException {
        try {
            return translatedCall.get();
        } catch (IdempotencyStorageException e) {
            if (e.getCause() instanceof MongoInterruptedException) {
                Thread.interrupted();
                throw new InterruptedException("interrupted while waiting for a completion");
            }
            throw e;
        }
    }

    /**
     * Whether a write failed because the key exists: {@code ErrorCategory.DUPLICATE_KEY} on a
     * {@code MongoWriteException} or a {@code MongoCommandException}, as which {@code
     * findAndModify} reports it.
     */
    static boolean isDuplicateKey(MongoException e) {
        int code =
                e instanceof MongoWriteException w
                        ? w.getError().getCode()
                        : e instanceof MongoCommandException c ? c.getErrorCode() : e.getCode();
        return ErrorCategory.fromErrorCode(code) == ErrorCategory.DUPLICATE_KEY;
    }

    /**
     * Whether the server applied a write whose write concern then failed or timed out (error 64
     * WriteConcernFailed, or a wtimeout or time limit reported as a write concern error), however
     * the driver wraps it: CSOT reports it as a {@code MongoOperationTimeoutException} caused by
     * the write concern error.
     */
    static boolean writeNotConfirmed(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof MongoWriteConcernException) {
                return true;
            }
            if (t instanceof MongoBulkWriteException bulk && bulk.getWriteConcernError() != null) {
                return true;
            }
            if (t instanceof MongoCommandException command
                    && (command.getErrorCode() == WRITE_CONCERN_FAILED
                            || command.getResponse().containsKey("writeConcernError"))) {
                return true;
            }
        }
        return false;
    }

    static IdempotencyStorageException failure(String operation, String key, RuntimeException e) {
        StringBuilder message =
                new StringBuilder("MongoDB ")
                        .append(operation)
                        .append(" failed (")
                        .append(e.getClass().getSimpleName());
        if (e instanceof MongoException m && m.getCode() != -1) {
            message.append(", code ").append(m.getCode());
        }
        String detail = e.getMessage() == null ? "" : e.getMessage();
        if (key != null) {
            // The effective key is a hash, but it belongs in debug logs only.
            detail = detail.replace(key, "<key>");
        }
        message.append("): ").append(MongoStoreSettings.redact(detail));
        IdempotencyStorageException.Kind kind = IdempotencyStorageException.Kind.FAILED;
        if (writeNotConfirmed(e)) {
            message.append(WRITE_NOT_CONFIRMED);
            kind = IdempotencyStorageException.Kind.WRITE_NOT_CONFIRMED;
        } else if (code(e) == SHARD_KEY_NOT_FOUND) {
            message.append(WRONG_SHARD_KEY);
        } else if (e instanceof MongoTimeoutException
                || e instanceof MongoOperationTimeoutException
                || e instanceof MongoSocketException) {
            message.append(UNREACHABLE);
            kind = IdempotencyStorageException.Kind.UNREACHABLE;
        }
        // The cause is kept for its stack trace, unless its messages name the key.
        return new IdempotencyStorageException(
                kind, message.toString(), key != null && mentions(e, key) ? null : e);
    }

    private static int code(RuntimeException e) {
        if (e instanceof MongoWriteException w) {
            return w.getError().getCode();
        }
        return e instanceof MongoException m ? m.getCode() : -1;
    }

    private static boolean mentions(Throwable e, String key) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(key)) {
                return true;
            }
        }
        return false;
    }
}
