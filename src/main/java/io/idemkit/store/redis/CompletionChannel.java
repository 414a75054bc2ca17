package io.idemkit.store.redis;

import io.idemkit.store.CompletionPoll;
import java.lang.System.Logger.Level;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * The push half of the wait (contract C4.3): one thread of a store instance, subscribed to the
 * store's Pub/Sub channel on a connection of its own, ends the pause of this instance's waiters on
 * every key another instance (on any node) announces as completed, released or deleted. On a Redis
 * Cluster a message published on any node reaches every node, so one subscription hears them all.
 *
 * <p>Started by the first wait, not at construction (a store does not connect until used). When the
 * subscription is confirmed, every waiter reads once more, so that an announcement made before it
 * is not missed either. While it is not subscribed (after its connection broke, until it is back),
 * waiters find completions by polling, which stays the correctness floor; it resubscribes after 1
 * s, doubling up to 30 s. Thread-safe.
 *
 * <p>The subscription's connection is taken from the client's pool but never given back: it is
 * closed when the subscription ends. A connection that leaves subscribed mode may still be owed a
 * reply (an {@code UNSUBSCRIBE} sent twice, a message published just before), and a command that
 * read it would take it for its own answer: another key's token, another key's result.
 */
final class CompletionChannel implements Runnable {

    private static final System.Logger LOG = System.getLogger(CompletionChannel.class.getName());
    private static final long FIRST_RETRY_MILLIS = 1_000;
    private static final long LONGEST_RETRY_MILLIS = 30_000;

    private final RedisCommands commands;
    private final String channel;
    private final CompletionPoll poll;
    private final Object lock = new Object();
    private final CountDownLatch closed = new CountDownLatch(1);
    private Thread thread; // guarded by lock
    private Subscription subscription; // guarded by lock
    private volatile boolean subscribed;

    CompletionChannel(RedisCommands commands, String channel, CompletionPoll poll) {
        this.commands = commands;
        this.channel = channel;
        this.poll = poll;
    }

    /** Starts the subscribing thread, once. */
    void start() {
        synchronized (lock) {
            if (thread != null || closed.getCount() == 0) {
                return;
            }
            thread = new Thread(this, "idemkit-redis-" + channel);
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * @return whether the subscription is confirmed now, so that a completion announced from now on
     *     wakes this instance's waiters
     */
    boolean subscribed() {
        return subscribed;
    }

    /**
     * @return {@code listening}, {@code idle (subscribes when a duplicate first waits)} or {@code
     *     polling (subscription down)}
     */
    String status() {
        if (subscribed) {
            return "listening";
        }
        synchronized (lock) {
            return thread == null
                    ? "idle (subscribes when a duplicate first waits)"
                    : "polling (subscription down)";
        }
    }

    @Override
    public void run() {
        long retry = FIRST_RETRY_MILLIS;
        while (closed.getCount() > 0) {
            Subscription listener = new Subscription();
            synchronized (lock) {
                if (closed.getCount() == 0) {
                    return;
                }
                subscription = listener;
            }
            try {
                listen(listener); // returns when unsubscribed
                retry = FIRST_RETRY_MILLIS;
            } catch (RuntimeException e) {
                LOG.log(
                        Level.DEBUG,
                        () ->
                                "idemkit's Redis subscription to "
                                        + channel
                                        + " broke; waiters poll until it is back: "
                                        + e);
            } finally {
                subscribed = false;
            }
            // Everything announced while unsubscribed is found by the waiters' next poll; wake
            // them so that they look now rather than at the end of a long pause.
            poll.signalAll();
            try {
                if (closed.await(retry, TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            retry = Math.min(retry * 2, LONGEST_RETRY_MILLIS);
        }
    }

    /**
     * Subscribes on a connection of the client's pool that is closed afterwards, never returned; on
     * a client of another kind, through the client, which returns it.
     */
    private void listen(Subscription listener) {
        UnifiedJedis client = commands.client();
        Pool<Connection> pool = anyPool(client);
        if (pool == null) {
            client.subscribe(listener, channel);
            return;
        }
        Connection connection = pool.getResource();
        try {
            listener.proceed(connection, channel);
        } finally {
            connection.setBroken(); // the pool destroys it instead of lending it again
            connection.close();
        }
    }

    private static Pool<Connection> anyPool(UnifiedJedis client) {
        if (client instanceof RedisClient one) {
            return one.getPool();
        }
        if (client instanceof RedisClusterClient cluster) {
            Iterator<ConnectionPool> nodes = cluster.getClusterNodes().values().iterator();
            return nodes.hasNext() ? nodes.next() : null;
        }
        return null;
    }

    /** Unsubscribes and ends the thread; idempotent. */
    void close() {
        Subscription current;
        synchronized (lock) {
            closed.countDown();
            current = subscription;
        }
        if (current != null && current.isSubscribed()) {
            current.end();
        }
    }

    private final class Subscription extends JedisPubSub {

        private final AtomicBoolean ending = new AtomicBoolean();

        /** Sends {@code UNSUBSCRIBE} once, whether close() or the confirmation asks first. */
        void end() {
            if (ending.compareAndSet(false, true)) {
                try {
                    unsubscribe();
                } catch (RuntimeException e) {
                    // the connection is gone already: the thread ends by itself
                }
            }
        }

        @Override
        public void onSubscribe(String name, int count) {
            subscribed = true;
            // A waiter that read before this moment may have missed an announcement: let every
            // waiter read once more, now that nothing announced from here on is missed.
            poll.signalAll();
            if (closed.getCount() == 0) {
                end();
            }
        }

        @Override
        public void onMessage(String name, String key) {
            poll.signal(key);
        }
    }
}
