package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import org.bson.BsonDocument;
import org.junit.jupiter.api.Test;

/** What the store reads from a {@code hello} or {@code isMaster} reply besides the clock. */
class ServerKindTest {

    @Test
    void mongosReply_isARouter() {
        // The shape of a mongos's hello reply (msg: "isdbgrid").
        ServerKind kind =
                ServerKind.of(
                        BsonDocument.parse(
                                "{isWritablePrimary: true, msg: 'isdbgrid', maxWireVersion: 25,"
                                        + " localTime: {$date: '2026-12-05T12:00:00Z'}, ok: 1}"));

        assertThat(kind).isEqualTo(new ServerKind(25, true));
    }

    @Test
    void replicaSetMemberReply_isNoRouter() {
        ServerKind kind =
                ServerKind.of(
                        BsonDocument.parse(
                                "{ismaster: true, setName: 'rs0', maxWireVersion: 9, ok: 1}"));

        assertThat(kind).isEqualTo(new ServerKind(9, false));
    }

    @Test
    void replyWithoutAWireVersion_leavesItUnknown() {
        assertThat(ServerKind.of(BsonDocument.parse("{ok: 1, msg: 7}")))
                .isEqualTo(new ServerKind(0, false));
    }

    @Test
    void mongoJavaServer_isNoRouter_andSpeaksPipelineWireVersions() {
        ServerClockCommand command =
                new ServerClockCommand(
                        c ->
                                InProcessMongo.shared()
                                        .sharedClient()
                                        .getDatabase("admin")
                                        .runCommand(c, BsonDocument.class));
        assertThat(command.kind()).isEqualTo(ServerKind.UNKNOWN);

        command.get();

        assertThat(command.kind().router()).isFalse();
        assertThat(command.kind().maxWireVersion())
                .isGreaterThanOrEqualTo(PipelineProbe.PIPELINES_WIRE_VERSION);
    }
}
