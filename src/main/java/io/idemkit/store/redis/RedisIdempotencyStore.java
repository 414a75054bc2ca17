package io.idemkit.store.redis;

import static io.idemkit.store.redis.RedisCommands.bytes;
import static io.idemkit.store.redis.RedisCommands.text;

import io.idemkit.IdempotencyStorageException;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreArguments;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.CompletionPoll;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis store (contract C3, C16): one hash per effective key, {@code <key-prefix><key>}, read
 * and changed only by Lua scripts ({@link Scripts}), each atomic on the server that holds the key.
 * Works on Redis 6.2 and later (and Valkey), one server or a Redis Cluster: every operation touches
 * one key, so a record and everything about it live on one hash slot.
 *
 * <h2>Round trips</h2>
 *
 * Every operation is one script call: a claim (fresh, duplicate, or takeover of a lapsed or
 * unreadable record alike), a completion, a renewal, a release, a read. A fresh request is two
 * (claim and completion); a replay is one and writes nothing. With {@code
 * idemkit.redis.wait-replicas} set, a completion's {@code WAIT} is pipelined behind it on the same
 * connection: still one round trip, plus the replicas' acknowledgement.
 *
 * <h2>Time</h2>
 *
 * Every decision and every stamp uses the clock of the server that runs the script ({@code TIME}).
 * The JVM's clock is read only to report the server's offset from it ({@link #health()}). On a
 * cluster each key is judged by its own master's clock, and after a failover by the promoted
 * replica's: the masters' and replicas' clocks must be synchronized (NTP), with a skew well under a
 * third of the shortest lease.
 *
 * <h2>Expiry</h2>
 *
 * Redis expires the records itself: a completed record at the end of its retention, a claim {@code
 * idemkit.redis.lease-grace} after its lease ends (until then a claim whose lease ran out can still
 * be completed or renewed by its owner, and is found by {@link #find}). Every read judges expiry on
 * the server's clock as well, so a record past its time is never answered, whenever Redis deletes
 * it. There is no purge on demand ({@link #purgeExpired()} is the SPI's refusal).
 *
 * <h2>Failures</h2>
 *
 * Each command is bounded by {@code idemkit.redis.timeout}; every failure surfaces as {@link
 * IdempotencyStorageException} with the client's or server's message and never the key ({@link
 * RedisFailures}). Nothing is cached that a server restart or failover would need to reset: the
 * scripts are sent again to a server that lost them.
 *
 * <p>Instances are thread-safe; one serves a whole application. Constructing one does not connect.
 */
public final class RedisIdempotencyStore implements IdempotencyStore {

    private static final String NAME = "redis";
    private static final System.Logger LOG =
            System.getLogger(RedisIdempotencyStore.class.getName());

    private final RedisStoreSettings settings;
    private final RedisCommands commands;
    private final Clock clock;
    private final CompletionPoll completions;
    private final CompletionChannel channel;
    private final byte[] channelName;
    private final byte[] clockKey;
    private final byte[] grace;

    /**
     * A store on an application's Jedis client ({@code RedisClient} for one server, {@code
     * RedisClusterClient} for a cluster), which the store never closes.
     *
     * @param client the client
     * @param settings the settings; the client's connection settings are not read from them
     * @param clock the JVM clock the server's offset is reported against; no decision uses it
     */
    public RedisIdempotencyStore(UnifiedJedis client, RedisStoreSettings settings, Clock clock) {
        this(
                new RedisCommands(Objects.requireNonNull(client, "client")),
                settings,
                clock,
                CompletionPoll.upTo(settings.pollLongestPause()));
    }

    /**
     * A store on a client of its own, made at first use and closed by {@link #close()}.
     *
     * @param client makes the client; called again at the next use when it failed
     * @param settings the settings
     * @param clock the JVM clock the server's offset is reported against; no decision uses it
     */
    RedisIdempotencyStore(Supplier<UnifiedJedis> client, RedisStoreSettings settings, Clock clock) {
        this(
                new RedisCommands(client),
                settings,
                clock,
                CompletionPoll.upTo(settings.pollLongestPause()));
    }

    /**
     * A store on an application's client whose waiters poll as {@code poll} says: a test that must
     * tell a wake-up from a poll gives it pauses far longer than its own bounds.
     */
    RedisIdempotencyStore(
            UnifiedJedis client, RedisStoreSettings settings, Clock clock, CompletionPoll poll) {
        this(new RedisCommands(client), settings, clock, poll);
    }

    private RedisIdempotencyStore(
            RedisCommands commands, RedisStoreSettings settings, Clock clock, CompletionPoll poll) {
        this.commands = commands;
        this.completions = poll;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        String channelText = settings.keyPrefix() + "completed";
        this.channelName = settings.notifications() ? bytes(channelText) : new byte[0];
        this.channel =
                settings.notifications()
                        ? new CompletionChannel(commands, channelText, completions)
                        : null;
        this.clockKey = bytes(settings.keyPrefix() + "clock");
        this.grace = bytes(settings.leaseGrace().toMillis());
    }

    private byte[] redisKey(String key) {
        return bytes(settings.keyPrefix() + key);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script call, whatever it finds: a live record answers as it is; anything else is
     * replaced by the new claim.
     */
    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        StoreArguments.checkClaim(key, fingerprint, fingerprintVersion, leaseTtl);
        ClaimToken token = ClaimToken.random();
        long lease = leaseTtl.toMillis();
        List<?> reply =
                (List<?>)
                        call(
                                "claim",
                                true,
                                () ->
                                        commands.run(
                                                Scripts.CLAIM,
                                                redisKey(key),
                                                bytes(fingerprint),
                                                bytes(fingerprintVersion),
                                                bytes(lease),
                                                bytes(token.value()),
                                                grace));
        String outcome = text(reply.get(0));
        Instant now = RecordCodec.millis(text(reply.get(1)));
        return switch (outcome) {
            case "CLAIMED" ->
                    ClaimResult.of(
                            ClaimStatus.ALREADY_CLAIMED, RecordCodec.record(key, reply.get(2)));
            case "COMPLETED" ->
                    ClaimResult.of(
                            ClaimStatus.ALREADY_COMPLETED, RecordCodec.record(key, reply.get(2)));
            default -> {
                IdempotencyRecord claimed =
                        IdempotencyRecord.claimed(
                                key,
                                fingerprint,
                                fingerprintVersion,
                                token,
                                now,
                                now.plusMillis(lease));
                boolean recovered = "1".equals(text(reply.get(2)));
                yield new ClaimResult(ClaimStatus.valueOf(outcome), claimed, recovered);
            }
        };
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script call; with {@code idemkit.redis.wait-replicas} set, followed on the same
     * connection by {@code WAIT}. A completion that fewer replicas acknowledged within {@code
     * idemkit.redis.wait-timeout} is still stored on the primary and counts as done, with a
     * warning: a failover before the replicas catch up could lose it, and the operation would then
     * run again.
     */
    @Override
    public boolean complete(
            String key, ClaimToken token, StoredResult result, Duration completedTtl) {
        StoreArguments.checkComplete(key, token, result, completedTtl);
        byte[] redisKey = redisKey(key);
        byte[][] args = {
            bytes(token.value()),
            bytes(completedTtl.toMillis()),
            bytes(result.status()),
            RecordCodec.headers(result.headers()),
            result.body(),
            channelName,
            bytes(key),
            bytes(0) // sent again: Scripts.resent
        };
        int replicas = settings.waitReplicas();
        boolean stored;
        if (replicas == 0) {
            stored =
                    call("complete", true, () -> commands.run(Scripts.COMPLETE, redisKey, args))
                            .equals(1L);
        } else {
            RedisCommands.Waited waited =
                    call(
                            "complete",
                            true,
                            () ->
                                    commands.runAndWait(
                                            Scripts.COMPLETE,
                                            redisKey,
                                            replicas,
                                            settings.waitTimeout().toMillis(),
                                            args));
            stored = Long.valueOf(1).equals(waited.reply());
            if (stored && waited.replicas() < replicas) {
                LOG.log(
                        Level.WARNING,
                        "idemkit's Redis store completed a record that "
                                + waited.replicas()
                                + " of the "
                                + replicas
                                + " replicas (idemkit.redis.wait-replicas) acknowledged within "
                                + settings.waitTimeout()
                                + ": a failover before they catch up could lose it, and the"
                                + " operation would run again.");
            }
        }
        if (!stored) {
            LOG.log(Level.DEBUG, () -> "complete lost its claim on " + key);
        }
        return completions.signalIf(stored, key);
    }

    /** {@inheritDoc} One script call. */
    @Override
    public boolean release(String key, ClaimToken token) {
        StoreArguments.checkRelease(key, token);
        Object reply =
                call(
                        "release",
                        true,
                        () ->
                                commands.run(
                                        Scripts.RELEASE,
                                        redisKey(key),
                                        bytes(token.value()),
                                        channelName,
                                        bytes(key)));
        return completions.signalIf(Long.valueOf(1).equals(reply), key);
    }

    /** {@inheritDoc} One script call. */
    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        StoreArguments.checkRenew(key, token, leaseTtl);
        Object reply =
                call(
                        "renew",
                        true,
                        () ->
                                commands.run(
                                        Scripts.RENEW,
                                        redisKey(key),
                                        bytes(token.value()),
                                        bytes(leaseTtl.toMillis()),
                                        grace));
        return Long.valueOf(1).equals(reply);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the record (one script call) first after 10 ms, doubling up to 500 ms, never past
     * the deadline; a completion, release or delete announced on the store's Pub/Sub channel (by
     * any instance sharing the server) or made through this instance ends the current pause at
     * once.
     */
    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        StoreArguments.checkAwaitCompletion(key, timeout);
        if (channel != null) {
            channel.start();
        }
        return completions.await(key, timeout, first -> read(key, "live", "awaitCompletion"));
    }

    /** {@inheritDoc} One script call. */
    @Override
    public Optional<IdempotencyRecord> find(String key) {
        StoreArguments.requireKey(key);
        return read(key, "visible", "find");
    }

    private Optional<IdempotencyRecord> read(String key, String which, String operation) {
        Object reply =
                call(
                        operation,
                        false,
                        () -> commands.run(Scripts.FIND, redisKey(key), bytes(which)));
        return reply == null ? Optional.empty() : Optional.of(RecordCodec.record(key, reply));
    }

    /** {@inheritDoc} One script call. */
    @Override
    public boolean delete(String key) {
        StoreArguments.requireKey(key);
        Object reply =
                call(
                        "delete",
                        true,
                        () -> commands.run(Scripts.DELETE, redisKey(key), channelName, bytes(key)));
        return completions.signalIf(Long.valueOf(1).equals(reply), key);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A counter of its own, {@code <key-prefix><attemptsKey>}: {@code INCR} and {@code PEXPIRE}
     * in one script call.
     */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        StoreArguments.checkCountAttempt(attemptsKey, retention);
        Object reply =
                call(
                        "countAttempt",
                        true,
                        () ->
                                commands.run(
                                        Scripts.COUNT,
                                        redisKey(attemptsKey),
                                        bytes(retention.toMillis())));
        return (Long) reply;
    }

    /** {@inheritDoc} The clock of the server holding {@code <key-prefix>clock}, one script call. */
    @Override
    public Instant now() {
        return RecordCodec.millis(
                text(call("now", false, () -> commands.run(Scripts.CLOCK, clockKey))));
    }

    /**
     * Up when the server answers; reports the server's clock offset from this JVM's as {@code
     * clockOffsetMillis}, measured at the midpoint of the round trip, and how waiting duplicates
     * hear of completions on other instances as {@code notifications}: {@code listening}, {@code
     * idle (subscribes when a duplicate first waits)}, {@code polling (subscription down)} while it
     * is being restored, or {@code polling} with notifications off; never down because of it.
     */
    @Override
    public StoreHealth health() {
        long before = clock.millis();
        Instant server = now();
        long after = clock.millis();
        return StoreHealth.up(
                Map.of(
                        "clockOffsetMillis",
                        server.toEpochMilli() - (before + (after - before) / 2),
                        "notifications",
                        channel != null ? channel.status() : "polling"));
    }

    /**
     * @return {@code redis}
     */
    @Override
    public String name() {
        return NAME;
    }

    /**
     * Looks at whether the servers may evict keys, for the deployment's check.
     *
     * @return what {@link RedisStoreOpening#evictionFindings} found
     */
    RedisStoreOpening.EvictionFindings evictionFindings() {
        return RedisStoreOpening.evictionFindings(commands.client());
    }

    /**
     * @return whether this instance is subscribed to the store's Pub/Sub channel now, so that
     *     completions announced by other instances wake its waiters at once
     */
    public boolean listening() {
        return channel != null && channel.subscribed();
    }

    /**
     * Unsubscribes, closes the client if the store made it, and wakes every waiter. Afterwards
     * every operation fails with {@link IdempotencyStorageException}. Idempotent.
     */
    @Override
    public void close() {
        if (channel != null) {
            channel.close();
        }
        commands.close();
        completions.signalAll();
    }

    @Override
    public String toString() {
        return "RedisIdempotencyStore[" + settings + "]";
    }

    private static <T> T call(
            String operation, boolean writes, java.util.function.Supplier<T> body) {
        return RedisFailures.translated(operation, writes, body);
    }
}
