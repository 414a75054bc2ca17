package io.idemkit.store.mongo;

import com.mongodb.MongoCommandException;
import com.mongodb.MongoNamespace;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.IndexOptions;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.bson.BsonValue;

/**
 * The TTL index on {@code expire_at} that lets MongoDB delete records a grace period after their
 * lease or retention ended (contract C9). It only bounds disk: every read checks expiry itself, so
 * correctness never depends on the index, nor on how late the server's TTL monitor runs (about once
 * a minute).
 *
 * <p>The index is looked up first and created only when missing, so that a server which accepts an
 * index with conflicting options (mongo-java-server does) is treated like one that refuses it
 * (MongoDB answers 85 IndexOptionsConflict or 86 IndexKeySpecsConflict). A conflict is never
 * swallowed: it is logged as a WARNING that says what to do, and the store keeps working.
 */
final class TtlIndex {

    /** The index's fixed name. */
    static final String NAME = "idemkit_expire_at_ttl";

    private static final int INDEX_OPTIONS_CONFLICT = 85;
    private static final int INDEX_KEY_SPECS_CONFLICT = 86;

    private static final System.Logger LOG = System.getLogger(TtlIndex.class.getName());

    private TtlIndex() {}

    /**
     * Makes sure the index exists. A server that cannot be reached raises (the caller retries on
     * its next use); a server that refuses the index is reported and otherwise ignored.
     */
    static void ensure(MongoCollection<BsonDocument> records) {
        MongoNamespace ns = records.getNamespace();
        List<String> conflicts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (BsonDocument index : records.listIndexes(BsonDocument.class)) {
            BsonDocument key = index.getDocument("key", new BsonDocument());
            String name = index.getString("name", new BsonString("?")).getValue();
            boolean onExpireAt = key.size() == 1 && key.containsKey(RecordLayout.EXPIRE_AT);
            if (onExpireAt && expiresAtOnce(index)) {
                return;
            }
            if (onExpireAt || name.equals(NAME)) {
                conflicts.add(describe(name, key, index));
                names.add(name);
            }
        }
        if (!conflicts.isEmpty()) {
            warnConflict(ns, conflicts, names);
            return;
        }
        try {
            records.createIndex(
                    new BsonDocument(RecordLayout.EXPIRE_AT, new BsonInt32(1)),
                    new IndexOptions().name(NAME).expireAfter(0L, TimeUnit.SECONDS));
            LOG.log(Level.DEBUG, () -> "Created TTL index " + NAME + " on " + ns);
        } catch (MongoCommandException e) {
            int code = e.getErrorCode();
            if (code == INDEX_OPTIONS_CONFLICT
                    || code == INDEX_KEY_SPECS_CONFLICT
                    || "IndexOptionsConflict".equals(e.getErrorCodeName())
                    || "IndexKeySpecsConflict".equals(e.getErrorCodeName())) {
                warnConflict(
                        ns,
                        List.of(e.getErrorCodeName() + ": " + e.getErrorMessage()),
                        List.of("<the index on expire_at>"));
            } else {
                // The server answered but refused (missing createIndex privilege, a view, ...).
                LOG.log(
                        Level.WARNING,
                        () ->
                                "idemkit: could not create the TTL index "
                                        + NAME
                                        + " on "
                                        + ns
                                        + " ("
                                        + e.getErrorCodeName()
                                        + ", code "
                                        + code
                                        + "): expired idempotency records will not be deleted"
                                        + " automatically. Correctness is not affected. Create it"
                                        + " yourself with db."
                                        + ns.getCollectionName()
                                        + ".createIndex({expire_at: 1}, {name: \""
                                        + NAME
                                        + "\", expireAfterSeconds: 0}), or call"
                                        + " MongoIdempotencyStore.purgeExpired() on a schedule.");
            }
        }
    }

    private static boolean expiresAtOnce(BsonDocument index) {
        BsonValue v = index.get("expireAfterSeconds");
        return v != null && v.isNumber() && v.asNumber().doubleValue() == 0.0;
    }

    private static String describe(String name, BsonDocument key, BsonDocument index) {
        BsonValue ttl = index.get("expireAfterSeconds");
        String options;
        if (ttl == null) {
            options = " without expireAfterSeconds";
        } else if (ttl.isNumber()) {
            options = " with expireAfterSeconds=" + ttl.asNumber().longValue();
        } else {
            options = " with expireAfterSeconds of type " + ttl.getBsonType();
        }
        return "'" + name + "' on " + key.toJson() + options;
    }

    private static void warnConflict(
            MongoNamespace ns, List<String> conflicts, List<String> names) {
        StringBuilder drops = new StringBuilder();
        for (String name : names) {
            drops.append(drops.length() == 0 ? "" : "; ")
                    .append("db.")
                    .append(ns.getCollectionName())
                    .append(".dropIndex(\"")
                    .append(name)
                    .append("\")");
        }
        LOG.log(
                Level.WARNING,
                () ->
                        "idemkit: the collection "
                                + ns
                                + " already has an index that conflicts with idemkit's TTL index "
                                + NAME
                                + " (expire_at ascending, expireAfterSeconds=0): "
                                + String.join("; ", conflicts)
                                + ". Expired idempotency records are then deleted late or never;"
                                + " correctness is not affected (expiry is checked on every"
                                + " read), but the collection grows. Fix: drop the conflicting"
                                + " index ("
                                + drops
                                + ") and restart so that idemkit creates its own, or call"
                                + " MongoIdempotencyStore.purgeExpired() on a schedule.");
    }
}
