package io.idemkit.store.redis;

import io.idemkit.IdempotencyException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.IdempotencyStorageException.Kind;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisClusterOperationException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns what Jedis throws into the SPI's {@link IdempotencyStorageException}, with the server's or
 * the client's message and never the key, and tells which kind of failure it was: a command sent
 * whose answer did not come in time (a write may have landed), a server that could not be reached
 * (nothing is known to be written), a server out of memory (it refuses writes), or another failure.
 */
final class RedisFailures {

    /** Appended to the message of a command whose answer did not come in time. */
    static final String NOT_CONFIRMED =
            " The command was sent but its answer did not come within idemkit.redis.timeout: it"
                    + " may have been applied. A claim may then have been written: it holds the key"
                    + " until its lease ends.";

    /** Appended to the message of a server that could not be reached. */
    static final String UNREACHABLE =
            " Redis is unreachable: nothing is known to have been written. Under fail-closed the"
                    + " operation is refused; under fail-open it runs unprotected.";

    /** Appended to the message of a server at its memory limit. */
    static final String OUT_OF_MEMORY =
            " Redis is at its maxmemory limit and refuses writes (maxmemory-policy noeviction):"
                    + " give it more memory, or shorten idemkit.completed-ttl.";

    private RedisFailures() {}

    /**
     * Runs one store operation, letting the library's own exceptions through and translating every
     * other one.
     *
     * @param operation the operation's name, for the message
     * @param writes whether the operation may write, so that an answer that did not come means a
     *     write that may have landed
     */
    static <T> T translated(String operation, boolean writes, Supplier<T> body) {
        try {
            return body.get();
        } catch (IdempotencyException e) {
            throw e;
        } catch (RuntimeException e) {
            throw failure(operation, writes, e);
        }
    }

    static IdempotencyStorageException failure(
            String operation, boolean writes, RuntimeException e) {
        Kind kind = kind(writes, e);
        String message = "Redis store: " + operation + " failed: " + e.getMessage() + ".";
        String why =
                switch (kind) {
                    case WRITE_NOT_CONFIRMED -> NOT_CONFIRMED;
                    case UNREACHABLE -> UNREACHABLE;
                    case REFUSED -> OUT_OF_MEMORY;
                    default -> "";
                };
        return new IdempotencyStorageException(kind, message + why, e);
    }

    private static Kind kind(boolean writes, RuntimeException e) {
        if (e instanceof JedisDataException data) {
            String text = String.valueOf(data.getMessage());
            // A refusal inside a script comes wrapped: "ERR Error running script ...: -OOM ...".
            if (text.contains("OOM command not allowed")) {
                return Kind.REFUSED;
            }
            if (text.startsWith("CLUSTERDOWN")
                    || text.startsWith("LOADING")
                    || text.startsWith("TRYAGAIN")
                    || text.startsWith("MASTERDOWN")
                    || text.contains("READONLY")) {
                return Kind.UNREACHABLE;
            }
            return Kind.FAILED;
        }
        if (e instanceof JedisConnectionException) {
            return writes && timedOutReading(e) ? Kind.WRITE_NOT_CONFIRMED : Kind.UNREACHABLE;
        }
        if (e instanceof JedisClusterOperationException) {
            return Kind.UNREACHABLE;
        }
        if (e instanceof JedisException
                && e.getCause() instanceof java.util.NoSuchElementException) {
            // no pooled connection came free within the timeout
            return Kind.UNREACHABLE;
        }
        return Kind.FAILED;
    }

    /**
     * Whether the command was sent and its answer timed out, rather than the connection failing.
     */
    static boolean timedOutReading(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException timeout
                    && !String.valueOf(timeout.getMessage())
                            .toLowerCase(Locale.ROOT)
                            .contains("connect")) {
                return true;
            }
        }
        return false;
    }
}
