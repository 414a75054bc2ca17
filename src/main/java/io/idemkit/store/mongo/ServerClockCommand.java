package io.idemkit.store.mongo;

import com.mongodb.MongoCommandException;
import io.idemkit.IdempotencyStorageException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonValue;

/**
 * Asks the server for its {@code localTime}: with {@code isMaster}, which every supported server
 * and mongo-java-server answer (an alias of {@code hello}, JIRA SERVER-49985; deprecated since
 * 4.4.2, still served), or with {@code hello} where a server refuses {@code isMaster} (a strict
 * Stable API client). The first command that works is remembered, so a refused one is never tried
 * again. The reply also tells what the server is ({@link #kind()}). Thread-safe.
 */
final class ServerClockCommand implements Supplier<Instant> {

    private static final List<String> COMMANDS = List.of("isMaster", "hello");

    private final Function<BsonDocument, BsonDocument> run;
    private volatile String known;
    private volatile ServerKind kind = ServerKind.UNKNOWN;

    /**
     * @param run runs one command on the database and returns the reply
     */
    ServerClockCommand(Function<BsonDocument, BsonDocument> run) {
        this.run = Objects.requireNonNull(run, "run");
    }

    @Override
    public Instant get() {
        String command = known;
        BsonDocument reply;
        if (command != null) {
            reply = run.apply(new BsonDocument(command, new BsonInt32(1)));
        } else {
            reply = firstThatWorks();
        }
        kind = ServerKind.of(reply);
        BsonValue localTime = reply.get("localTime");
        if (localTime == null || !localTime.isDateTime()) {
            throw new IdempotencyStorageException(
                    "MongoDB store cannot estimate the server's clock: "
                            + known
                            + " reported no localTime");
        }
        return Instant.ofEpochMilli(localTime.asDateTime().getValue());
    }

    /**
     * @return what the latest reply said of the server; {@link ServerKind#UNKNOWN} before one
     */
    ServerKind kind() {
        return kind;
    }

    /**
     * @return the command that worked, or {@code null} before the first answer
     */
    String knownCommand() {
        return known;
    }

    private BsonDocument firstThatWorks() {
        MongoCommandException refused = null;
        for (String command : COMMANDS) {
            try {
                BsonDocument reply = run.apply(new BsonDocument(command, new BsonInt32(1)));
                known = command;
                return reply;
            } catch (MongoCommandException e) {
                refused = e;
            }
        }
        throw refused;
    }
}
