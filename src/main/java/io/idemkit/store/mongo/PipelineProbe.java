package io.idemkit.store.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.bson.BsonDocument;

/**
 * Whether the server runs the update pipelines of {@link ServerStampedUpdates}, asked once when the
 * store starts (C9). The answer "no pipelines" is given only when the server refuses the feature
 * itself: a wire version below MongoDB 4.2's, or a command error whose code says that the update
 * could not be parsed, or names an operator, stage or variable the server does not know ({@link
 * #REFUSAL_CODES}). Anything else (a stepdown, a node recovering, a missing privilege, a shard or
 * network failure, a timeout) is thrown: the store's start fails as a storage failure, nothing is
 * remembered, and the next use asks again. A transient failure can therefore never pin a store to
 * the fallback path for its whole life.
 *
 * <p>It asks two questions, each a {@code findAndModify} without upsert on an id no record has, so
 * that nothing is written:
 *
 * <ol>
 *   <li>A pipeline with a stage no update may hold ({@code $match}). A server that runs update
 *       pipelines parses the update before it looks for a document, and refuses this one (MongoDB
 *       4.2+: {@code InvalidOptions}, "$match is not allowed to be used within an update"). A
 *       server that <em>accepts</em> it has not read the pipeline at all: mongo-java-server reads
 *       an update only for a document the query matched, and nothing matches. It does not run
 *       pipelines, and it failed no command (it logs every command it fails as an ERROR with a
 *       stack trace, which a probe must not put in the user's log at every start).
 *   <li>Only after that refusal: one pipeline carrying every stage and operator the store's writes
 *       use, built by the very methods that build them ({@code $replaceWith}, {@code $set}, {@code
 *       $unset}, {@code $cond}, {@code $eq}, {@code $type}, {@code $add}, {@code $literal}, {@code
 *       $$NOW}, {@code $$ROOT}), behind the takeover's {@code $expr} filter. A server that accepts
 *       only part of it (FerretDB refuses every pipeline in {@code findAndModify}; an emulator may
 *       know {@code $set} alone) refuses it, and the store takes the fallback path instead of
 *       failing every claim.
 * </ol>
 *
 * Stateless and thread-safe.
 */
final class PipelineProbe {

    /** The wire version of MongoDB 4.2, the first server to run update pipelines. */
    static final int PIPELINES_WIRE_VERSION = 8;

    /** An id no record can have: keys are printable ASCII, without spaces. */
    static final String PROBE_ID = "idemkit pipeline probe";

    /**
     * The error codes that mean "this server does not run this update": 2 BadValue, 9
     * FailedToParse, 14 TypeMismatch (a server that wants an update document, not an array), 72
     * InvalidOptions (a stage not allowed in an update), 115 CommandNotSupported, 168
     * InvalidPipelineOperator (an unknown expression), 238 NotImplemented, 323 APIStrictError (not
     * in the client's Stable API), 17276 (an undefined variable such as {@code $$NOW}), 40324 (an
     * unknown stage).
     */
    static final Set<Integer> REFUSAL_CODES =
            Set.of(2, 9, 14, 72, 115, 168, 238, 323, 17276, 40324);

    /**
     * The code names of {@link #REFUSAL_CODES}, for a server that sends a name with another code.
     */
    static final Set<String> REFUSAL_NAMES =
            Set.of(
                    "BadValue",
                    "FailedToParse",
                    "TypeMismatch",
                    "InvalidOptions",
                    "CommandNotSupported",
                    "InvalidPipelineOperator",
                    "NotImplemented",
                    "APIStrictError",
                    "Location17276",
                    "Location40324");

    /** Labels that mark a failure as transient, whatever its code. */
    private static final Set<String> TRANSIENT_LABELS =
            Set.of("RetryableWriteError", "TransientTransactionError", "NoWritesPerformed");

    /**
     * What the probe found.
     *
     * @param runsPipelines whether the store takes the pipeline path
     * @param why the evidence, for the one INFO line that names the path
     */
    record Answer(boolean runsPipelines, String why) {}

    private PipelineProbe() {}

    /**
     * Asks the server.
     *
     * @param records the store's collection
     * @param maxWireVersion the wire version the server reported, or 0 if it reported none
     * @return the answer; never a guess from a failure that is not a refusal
     * @throws MongoException any failure that is not the server's refusal of update pipelines
     */
    static Answer ask(MongoCollection<BsonDocument> records, int maxWireVersion) {
        if (maxWireVersion > 0 && maxWireVersion < PIPELINES_WIRE_VERSION) {
            return new Answer(
                    false,
                    "the server's wire version "
                            + maxWireVersion
                            + " is below "
                            + PIPELINES_WIRE_VERSION
                            + " (MongoDB 4.2), the first to run update pipelines");
        }
        BsonDocument noRecord = RecordLayout.byKey(PROBE_ID);
        try {
            records.findOneAndUpdate(
                    noRecord, List.of(new BsonDocument("$match", new BsonDocument())));
            return new Answer(
                    false,
                    "the server accepted, without reading it, an update pipeline that MongoDB"
                            + " refuses: it does not run update pipelines (an emulator such as"
                            + " mongo-java-server)");
        } catch (MongoException e) {
            refusalOrThrow(e);
        }
        try {
            records.findOneAndUpdate(RecordLayout.notLive(PROBE_ID), everyStageInUse());
            return new Answer(
                    true,
                    "the server accepted an update pipeline with every stage and operator the"
                            + " store's writes use");
        } catch (MongoException e) {
            return new Answer(
                    false,
                    "the server refused an update pipeline with the stages and operators the"
                            + " store's writes use ("
                            + refusalOrThrow(e)
                            + ")");
        }
    }

    /**
     * Whether {@code e} is the server's refusal of the update itself.
     *
     * @param e what the driver threw
     * @return whether it is a refusal of the feature
     */
    static boolean isRefusal(MongoException e) {
        if (e instanceof MongoNotPrimaryException || e instanceof MongoNodeIsRecoveringException) {
            return false;
        }
        for (String label : TRANSIENT_LABELS) {
            if (e.hasErrorLabel(label)) {
                return false;
            }
        }
        if (e instanceof MongoCommandException c) {
            return REFUSAL_CODES.contains(c.getErrorCode())
                    || REFUSAL_NAMES.contains(c.getErrorCodeName());
        }
        if (e instanceof MongoWriteException w) {
            return REFUSAL_CODES.contains(w.getError().getCode());
        }
        return false;
    }

    /** Returns a refusal's description, or throws {@code e} if it is not one. */
    private static String refusalOrThrow(MongoException e) {
        if (!isRefusal(e)) {
            throw e;
        }
        String detail =
                e instanceof MongoCommandException c
                        ? c.getErrorCodeName() + ", code " + c.getErrorCode()
                        : "code " + e.getCode();
        return detail + ": " + e.getMessage();
    }

    /**
     * The stages of a claim's insert, a takeover, a completion and a renewal, in one pipeline:
     * every stage and operator the pipeline path sends.
     */
    static List<BsonDocument> everyStageInUse() {
        ClaimToken token = new ClaimToken("0".repeat(32));
        ServerStampedUpdates.NewClaim claim = new ServerStampedUpdates.NewClaim("$probe", 1, token);
        Duration lease = Duration.ofMinutes(1);
        Duration grace = MongoStoreSettings.MINIMUM_LEASE_GRACE;
        StoredResult result =
                new StoredResult(200, List.of(new StoredHeader("X-Probe", "$x")), new byte[] {0});
        List<BsonDocument> stages = new ArrayList<>();
        stages.addAll(ServerStampedUpdates.insertClaim(PROBE_ID, claim, lease, grace));
        stages.addAll(ServerStampedUpdates.takeOver(claim, lease, grace));
        stages.addAll(ServerStampedUpdates.complete(token, result, lease, grace));
        stages.addAll(ServerStampedUpdates.renew(lease, grace));
        return stages;
    }
}
