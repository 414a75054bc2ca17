package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.MongoCommandException;
import com.mongodb.ServerAddress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.bson.BsonDateTime;
import org.bson.BsonDocument;
import org.bson.BsonInt32;
import org.bson.BsonString;
import org.junit.jupiter.api.Test;

/** The clock command is found once and remembered (C9). */
class ServerClockCommandTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private final List<String> asked = new ArrayList<>();

    private BsonDocument answer(BsonDocument command, boolean isMasterRefused) {
        String name = command.getFirstKey();
        asked.add(name);
        if (name.equals("isMaster") && isMasterRefused) {
            throw new MongoCommandException(
                    new BsonDocument("ok", new BsonInt32(0))
                            .append("code", new BsonInt32(323))
                            .append("errmsg", new BsonString("not in API Version 1")),
                    new ServerAddress());
        }
        return new BsonDocument("localTime", new BsonDateTime(NOW.toEpochMilli()));
    }

    @Test
    void serverRefusingIsMaster_isAskedHelloFromThenOn() {
        ServerClockCommand clock = new ServerClockCommand(c -> answer(c, true));

        assertThat(clock.get()).isEqualTo(NOW);
        assertThat(clock.get()).isEqualTo(NOW);
        assertThat(clock.get()).isEqualTo(NOW);

        assertThat(asked).containsExactly("isMaster", "hello", "hello", "hello");
        assertThat(clock.knownCommand()).isEqualTo("hello");
    }

    @Test
    void serverAnsweringIsMaster_isNeverAskedHello() {
        ServerClockCommand clock = new ServerClockCommand(c -> answer(c, false));

        clock.get();
        clock.get();

        assertThat(asked).containsExactly("isMaster", "isMaster");
    }

    @Test
    void mongoJavaServer_answersIsMaster() {
        ServerClockCommand clock =
                new ServerClockCommand(
                        c ->
                                InProcessMongo.shared()
                                        .sharedClient()
                                        .getDatabase("admin")
                                        .runCommand(c, BsonDocument.class));

        assertThat(clock.get()).isNotNull();
        assertThat(clock.knownCommand()).isEqualTo("isMaster");
    }
}
