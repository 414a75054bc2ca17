package io.idemkit.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * Runs the {@link Scripts} on a Jedis client, standalone or cluster alike: one key each, so that
 * the client routes every call to the server holding that key's slot. Thread-safe, as the client
 * is.
 */
final class RedisCommands {

    private final Supplier<UnifiedJedis> factory;
    private final boolean owned;
    private final Object lock = new Object();
    private volatile UnifiedJedis client;
    private volatile boolean closed;

    /**
     * @param client a client made by the application, never closed here
     */
    RedisCommands(UnifiedJedis client) {
        this.factory = () -> client;
        this.client = client;
        this.owned = false;
    }

    /**
     * @param factory makes the client at first use, and again at the next use after it failed
     */
    RedisCommands(Supplier<UnifiedJedis> factory) {
        this.factory = factory;
        this.owned = true;
    }

    /**
     * @return the client, made now if it was not yet
     * @throws IllegalStateException after {@link #close()}
     */
    UnifiedJedis client() {
        if (closed) {
            throw new IllegalStateException("the store is closed");
        }
        UnifiedJedis made = client;
        if (made != null) {
            return made;
        }
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the store is closed");
            }
            if (client == null) {
                client = factory.get();
            }
            return client;
        }
    }

    /** Closes the client if this made it; afterwards every call fails. Idempotent. */
    void close() {
        UnifiedJedis made;
        synchronized (lock) {
            closed = true;
            made = client;
        }
        if (owned && made != null) {
            made.close();
        }
    }

    /**
     * Runs a script on {@code key}: {@code EVALSHA}, and {@code EVAL} when the server has not seen
     * the script (a new or restarted server, or one whose scripts were flushed). When a pooled
     * connection turns out broken (the server restarted, or closed idle clients), the pool's idle
     * connections are dropped and a {@link Scripts#resendable() resendable} script is sent once
     * more, on a new one; a script whose answer timed out is never sent again.
     *
     * @return the script's reply, as Jedis gives it: {@code byte[]}, {@code Long}, {@code List} or
     *     {@code null}
     */
    Object run(Scripts script, byte[] key, byte[]... args) {
        try {
            return once(script, key, args);
        } catch (JedisConnectionException e) {
            if (!resend(script, e)) {
                throw e;
            }
            return once(script, key, script.resent(args));
        }
    }

    private Object once(Scripts script, byte[] key, byte[][] args) {
        List<byte[]> keys = List.of(key);
        List<byte[]> argv = List.of(args);
        try {
            return client().evalsha(script.sha(), keys, argv);
        } catch (JedisNoScriptException e) {
            return client().eval(script.text(), keys, argv);
        }
    }

    /**
     * Whether to send a script again after {@code failure}: on one server, for a broken connection
     * (not an answer that timed out), after dropping the pool's idle connections, which the same
     * cause broke too. A cluster client retries on its own.
     */
    private boolean resend(Scripts script, JedisConnectionException failure) {
        if (!script.resendable()
                || RedisFailures.timedOutReading(failure)
                || !(client() instanceof RedisClient one)) {
            return false;
        }
        one.getPool().clear();
        return true;
    }

    /**
     * Runs a script on {@code key} and then {@code WAIT}s for {@code replicas} replicas of its
     * server, on one connection, as {@code WAIT} requires: it counts the replicas that acknowledged
     * the writes of the connection it is sent on. Sent again as {@link #run} is.
     *
     * @return the script's reply and how many replicas acknowledged it
     */
    Waited runAndWait(
            Scripts script, byte[] key, int replicas, long timeoutMillis, byte[]... args) {
        try {
            return waitOnce(script, key, replicas, timeoutMillis, args);
        } catch (JedisConnectionException e) {
            if (!resend(script, e)) {
                throw e;
            }
            return waitOnce(script, key, replicas, timeoutMillis, script.resent(args));
        }
    }

    private Waited waitOnce(
            Scripts script, byte[] key, int replicas, long timeoutMillis, byte[][] args) {
        List<byte[]> keys = List.of(key);
        List<byte[]> argv = List.of(args);
        try {
            return pipelined(script, key, replicas, timeoutMillis, keys, argv, false);
        } catch (JedisNoScriptException e) {
            return pipelined(script, key, replicas, timeoutMillis, keys, argv, true);
        }
    }

    private Waited pipelined(
            Scripts script,
            byte[] key,
            int replicas,
            long timeoutMillis,
            List<byte[]> keys,
            List<byte[]> argv,
            boolean withText) {
        Response<Object> reply;
        Response<Long> acknowledged;
        try (AbstractPipeline pipeline = client().pipelined()) {
            reply =
                    withText
                            ? pipeline.eval(script.text(), keys, argv)
                            : pipeline.evalsha(script.sha(), keys, argv);
            acknowledged = pipeline.waitReplicas(key, replicas, timeoutMillis);
            pipeline.sync();
        }
        return new Waited(reply.get(), acknowledged.get());
    }

    /** A script's reply and the replicas that acknowledged its writes. */
    record Waited(Object reply, long replicas) {}

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] bytes(long number) {
        return Long.toString(number).getBytes(StandardCharsets.US_ASCII);
    }

    static String text(Object reply) {
        return new String((byte[]) reply, StandardCharsets.UTF_8);
    }
}
