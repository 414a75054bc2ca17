package io.idemkit.it.conformance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the conformance table (docs/conformance.md) counts: the reference's vectors by surface, and
 * for each surface on each store the IT classes that run them ({@link Row}). A vector is run by a
 * test method named after its {@code id} in one of the row's classes, unless the row names another
 * test for it ({@link RunBy}: a real kill in a class of its own), or declares that it cannot run on
 * that store as the reference means it ({@link NotApplicable}, with the reason the table's note
 * gives). A test that only stages a vector is named after what it shows, never after the vector.
 */
final class ConformanceRows {

    private ConformanceRows() {}

    /** A surface, with the ids of its vectors in the order of the reference's file. */
    enum Surface {
        HTTP(
                "HTTP",
                List.of(
                        "basic-replay",
                        "payload-mismatch",
                        "concurrent-same-key-exactly-once",
                        "in-flight-wait-then-replay",
                        "in-flight-wait-timeout",
                        "crash-recovery-lease-expiry",
                        "5xx-not-cached-by-default",
                        "cross-tenant-isolation",
                        "missing-key-when-required",
                        "response-headers-preserved",
                        "corrupt-record-treated-as-absent",
                        "body-size-exceeded-bypass")),
        QUEUE(
                "Queue",
                List.of(
                        "queue-at-least-once-dedup",
                        "queue-concurrent-redelivery",
                        "queue-crash-recovery",
                        "queue-lease-shorter-than-visibility",
                        "queue-poison-dlq",
                        "queue-result-bearing-replay")),
        /** The queue vectors on Kafka records, an {@code @Incoming} method's (C17). */
        KAFKA("Queue (Kafka)", QUEUE.vectors),
        TOOL(
                "Tool call",
                List.of(
                        "tool-retry-dedup",
                        "tool-arg-normalization",
                        "tool-concurrent-calls",
                        "tool-crash-recovery",
                        "tool-unserializable-result-fails-closed",
                        "tool-pickle-opt-in-warns"));

        final String title;
        final List<String> vectors;

        Surface(String title, List<String> vectors) {
            this.title = title;
            this.vectors = vectors;
        }
    }

    /**
     * A vector that cannot run on a row's store as the reference means it.
     *
     * @param vector the vector's id
     * @param reason why, as the table's note says it (Markdown)
     */
    record NotApplicable(String vector, String reason) {}

    /**
     * A vector run on a row's store by a test that is not named after it.
     *
     * @param vector the vector's id
     * @param itClass the IT class's simple name
     * @param method the test method's name
     */
    record RunBy(String vector, String itClass, String method) {}

    /**
     * A surface on a store, and the IT classes that run its vectors there.
     *
     * @param production whether the store is a production backend in the reference's sense (Redis
     *     or PostgreSQL), whose rows decide what the table claims as compatible
     * @param notApplicable the vectors that cannot run on this store as the reference means them
     * @param runBy the vectors a test not named after them runs, in a class of its own or not
     */
    record Row(
            Surface surface,
            String store,
            boolean production,
            List<String> classes,
            List<NotApplicable> notApplicable,
            List<RunBy> runBy) {

        Row {
            notApplicable = List.copyOf(notApplicable);
            runBy = List.copyOf(runBy);
            Set<String> named = new LinkedHashSet<>();
            notApplicable.forEach(n -> named.add(n.vector()));
            runBy.forEach(r -> named.add(r.vector()));
            if (named.size() != notApplicable.size() + runBy.size()
                    || !surface.vectors.containsAll(named)) {
                throw new IllegalArgumentException(
                        "each vector of "
                                + surface
                                + " on "
                                + store
                                + " is set aside at most once");
            }
        }

        Row(Surface surface, String store, boolean production, List<String> classes) {
            this(surface, store, production, classes, List.of(), List.of());
        }

        /**
         * @return this row, with {@code vector} not applicable for {@code reason}
         */
        Row notApplicable(String vector, String reason) {
            List<NotApplicable> more = new ArrayList<>(notApplicable);
            more.add(new NotApplicable(vector, reason));
            return new Row(surface, store, production, classes, more, runBy);
        }

        /**
         * @return this row, with {@code vector} run by {@code itClass}'s test {@code method}
         */
        Row runBy(String vector, String itClass, String method) {
            List<RunBy> more = new ArrayList<>(runBy);
            more.add(new RunBy(vector, itClass, method));
            return new Row(surface, store, production, classes, notApplicable, more);
        }

        Optional<NotApplicable> notApplicable(String vector) {
            return notApplicable.stream().filter(n -> n.vector().equals(vector)).findFirst();
        }
    }

    private static final String MONGO = "MongoDB (mongo-java-server)";

    /** A real {@code redis-server} (6.2), a production backend in the reference's sense. */
    private static final String REDIS = "Redis";

    /** Why no crash of the server can leave a claim of the in-memory store behind. */
    static final String DIES_WITH_THE_SERVER =
            "the in-memory store lives in the server's process: a real crash takes it, claims"
                    + " included, so no claim outlives the crash for its lease to run out (a claim"
                    + " left unended is reclaimed after its lease: `HttpMemoryStoreIT`'s"
                    + " `abandonedClaim_isReclaimedAfterItsLease`, no crash)";

    /** Why the in-memory store has no corrupt record to treat as absent. */
    static final String NO_BYTES_TO_CORRUPT =
            "the in-memory store holds only well-typed records, never bytes it must decode into"
                    + " one: none can be corrupt";

    /** Why the tool-call surface has no opt-in codec to warn about. */
    static final String NO_PICKLE =
            "Java has no pickle codec to opt into: the library's only result codec, JSON-B,"
                    + " instantiates no class that the stored bytes name, and nothing tells it"
                    + " whether a codec an application plugs in (`MethodResultCodec`, whose Javadoc"
                    + " forbids Java serialization) would; each tool-call IT shows instead that a"
                    + " planted Java serialization stream is refused unread"
                    + " (`plantedSerializedResult_isRefusedAndNeverDeserialized`)";

    private static final String CRASH = "crash-recovery-lease-expiry";
    private static final String PICKLE = "tool-pickle-opt-in-warns";

    static final List<Row> ROWS =
            List.of(
                    new Row(
                            Surface.HTTP,
                            "PostgreSQL",
                            true,
                            List.of("HttpJdbcStoreIT", "HttpJdbcAppDataSourceIT")),
                    // A second server killed mid-request; the retry lands on the surviving one.
                    new Row(Surface.HTTP, REDIS, true, List.of("HttpRedisStoreIT")),
                    new Row(
                            Surface.HTTP,
                            "MariaDB",
                            false,
                            List.of("HttpJdbcMariaDbLibertyIT", "HttpJdbcMariaDbIT")),
                    // A real server killed mid-request, on this store.
                    new Row(Surface.HTTP, MONGO, false, List.of("HttpMongoStoreIT"))
                            .runBy(
                                    CRASH,
                                    "HttpCrashAndRestartIT",
                                    "serverKilledMidRequest_keyWaitsOutTheLease_thenRunsOnce"
                                            + "_andItsResultSurvivesARestart"),
                    new Row(Surface.HTTP, "in-memory", false, List.of("HttpMemoryStoreIT"))
                            .notApplicable(CRASH, DIES_WITH_THE_SERVER)
                            .notApplicable("corrupt-record-treated-as-absent", NO_BYTES_TO_CORRUPT),
                    new Row(
                            Surface.QUEUE,
                            "PostgreSQL",
                            true,
                            List.of("MessageJdbcStoreIT", "MessageArtemisJdbcStoreIT")),
                    new Row(
                            Surface.QUEUE,
                            REDIS,
                            true,
                            List.of("MessageRedisStoreIT", "MessageArtemisRedisStoreIT")),
                    new Row(Surface.QUEUE, MONGO, false, List.of("MessageMongoStoreIT")),
                    new Row(
                                    Surface.QUEUE,
                                    "in-memory",
                                    false,
                                    List.of("MessageMemoryStoreIT", "MessageArtemisMemoryStoreIT"))
                            .notApplicable("queue-crash-recovery", DIES_WITH_THE_SERVER),
                    new Row(
                            Surface.KAFKA,
                            "PostgreSQL",
                            true,
                            List.of("KafkaLibertyIT", "KafkaWildFlyIT")),
                    new Row(
                                    Surface.TOOL,
                                    "PostgreSQL",
                                    true,
                                    List.of("JdbcMethodSurfaceIT", "JdbcAppDataSourceMethodIT"))
                            .notApplicable(PICKLE, NO_PICKLE),
                    new Row(Surface.TOOL, REDIS, true, List.of("RedisMethodSurfaceIT"))
                            .notApplicable(PICKLE, NO_PICKLE),
                    new Row(Surface.TOOL, "MariaDB", false, List.of("JdbcMariaDbMethodSurfaceIT"))
                            .notApplicable(PICKLE, NO_PICKLE),
                    new Row(Surface.TOOL, MONGO, false, List.of("MongoMethodSurfaceIT"))
                            .notApplicable(PICKLE, NO_PICKLE),
                    new Row(Surface.TOOL, "in-memory", false, List.of("MethodSurfaceIT"))
                            .notApplicable(PICKLE, NO_PICKLE));
}
