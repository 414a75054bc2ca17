package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.FailingMongo.ADDRESS;
import static io.idemkit.store.mongo.FailingMongo.commandError;
import static io.idemkit.store.mongo.FailingMongo.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.mongodb.MongoCredential;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSecurityException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoTimeoutException;
import com.mongodb.MongoWriteException;
import com.mongodb.WriteError;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.event.CommandFailedEvent;
import com.mongodb.event.CommandListener;
import com.mongodb.event.CommandSucceededEvent;
import io.idemkit.spi.ClaimToken;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.bson.BsonArray;
import org.bson.BsonDocument;
import org.bson.BsonString;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The probe's decision for each kind of answer (C9): "no pipelines" only when the server refuses
 * the feature itself, and every other failure thrown, so that the next use asks again. The driver
 * exceptions are the driver's own classes, thrown by a proxy in front of a real collection on
 * mongo-java-server ({@link FailingMongo}); what the proxy passes, that server answers.
 */
class PipelineProbeTest {

    private static final InProcessMongo mongo = InProcessMongo.shared();

    private final String collection = InProcessMongo.freshSettings().collection();
    private final MongoCollection<BsonDocument> real = mongo.raw(collection);

    @AfterEach
    void drop() {
        real.drop();
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        "MongoDB 4.2+, a stage not allowed", commandError(72, "InvalidOptions")),
                Arguments.of("an update that is not a document", commandError(9, "FailedToParse")),
                Arguments.of("an update that is not a document", commandError(14, "TypeMismatch")),
                Arguments.of("a refused value", commandError(2, "BadValue")),
                Arguments.of("FerretDB-like", commandError(238, "NotImplemented")),
                Arguments.of("no such command form", commandError(115, "CommandNotSupported")),
                Arguments.of("an unknown operator", commandError(168, "InvalidPipelineOperator")),
                Arguments.of("an unknown stage", commandError(40324, "Location40324")),
                Arguments.of("an undefined $$NOW", commandError(17276, "Location17276")),
                Arguments.of("outside the Stable API", commandError(323, "APIStrictError")),
                Arguments.of(
                        "a write error refusing the update",
                        new MongoWriteException(
                                new WriteError(9, "FailedToParse", new BsonDocument()),
                                ADDRESS,
                                Set.of())));
    }

    static Stream<Arguments> transientOrOtherFailures() {
        return Stream.of(
                Arguments.of(
                        "a stepdown",
                        new MongoNotPrimaryException(reply(10107, "NotWritablePrimary"), ADDRESS)),
                Arguments.of(
                        "a node recovering",
                        new MongoNodeIsRecoveringException(
                                reply(11602, "InterruptedDueToReplStateChange"), ADDRESS)),
                Arguments.of("a missing privilege", commandError(13, "Unauthorized")),
                Arguments.of("a shard's stale routing", commandError(13388, "StaleConfig")),
                Arguments.of(
                        "a shard that cannot be targeted", commandError(61, "ShardKeyNotFound")),
                Arguments.of(
                        "a refusal code on a retryable error",
                        commandError(72, "InvalidOptions", "RetryableWriteError")),
                Arguments.of(
                        "a shard failure reported as a write error",
                        new MongoWriteException(
                                new WriteError(13388, "StaleConfig", new BsonDocument()),
                                ADDRESS,
                                Set.of())),
                Arguments.of(
                        "the network",
                        new MongoSocketReadException("Prematurely reached end of stream", ADDRESS)),
                Arguments.of(
                        "no server selected",
                        new MongoTimeoutException("Timed out while waiting for a server")),
                Arguments.of(
                        "the operation timeout",
                        new MongoOperationTimeoutException("Operation exceeded the timeout")),
                Arguments.of(
                        "authentication",
                        new MongoSecurityException(
                                MongoCredential.createCredential("u", "admin", new char[] {'p'}),
                                "Exception authenticating")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusalOfThePipeline_answersNoPipelinesAndSaysWhy(String what, RuntimeException refusal) {
        PipelineProbe.Answer answer =
                PipelineProbe.ask(
                        FailingMongo.collection(real, FailingMongo.PipelineUpdates.always(refusal)),
                        13);

        assertThat(answer.runsPipelines()).isFalse();
        assertThat(answer.why()).contains("refused").contains(refusal.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transientOrOtherFailures")
    void anyOtherFailureAtTheFirstQuestion_isThrownNotAnswered(
            String what, RuntimeException failure) {
        MongoCollection<BsonDocument> records =
                FailingMongo.collection(real, FailingMongo.PipelineUpdates.always(failure));

        assertThatThrownBy(() -> PipelineProbe.ask(records, 13)).isSameAs(failure);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transientOrOtherFailures")
    void anyOtherFailureAtTheSecondQuestion_isThrownNotAnswered(
            String what, RuntimeException failure) {
        FailingMongo.PipelineUpdates rule =
                new FailingMongo.PipelineUpdates(
                        n -> n == 1 ? commandError(72, "InvalidOptions") : failure);

        assertThatThrownBy(() -> PipelineProbe.ask(FailingMongo.collection(real, rule), 13))
                .isSameAs(failure);
        assertThat(rule.count()).isEqualTo(2);
    }

    @Test
    void firstQuestionRefusedAndSecondAccepted_answersPipelines() {
        // What real MongoDB 4.2+ answers: it refuses the $match stage, and accepts the pipeline
        // of the store's stages (here the emulator accepts it unread, as it matches nothing).
        FailingMongo.PipelineUpdates rule =
                new FailingMongo.PipelineUpdates(
                        n -> n == 1 ? commandError(72, "InvalidOptions") : null);

        PipelineProbe.Answer answer = PipelineProbe.ask(FailingMongo.collection(real, rule), 13);

        assertThat(answer.runsPipelines()).isTrue();
        assertThat(answer.why()).contains("every stage and operator");
        assertThat(rule.count()).isEqualTo(2);
        assertThat(real.countDocuments()).isZero();
    }

    @Test
    void wireVersionBelowMongoDb42_answersNoPipelinesWithoutAsking() {
        FailingMongo.PipelineUpdates rule =
                FailingMongo.PipelineUpdates.always(new IllegalStateException("not asked"));

        PipelineProbe.Answer answer = PipelineProbe.ask(FailingMongo.collection(real, rule), 7);

        assertThat(answer.runsPipelines()).isFalse();
        assertThat(answer.why()).contains("wire version 7");
        assertThat(rule.count()).isZero();
    }

    @Test
    void secondQuestion_carriesEveryStageAndOperatorTheWritesUse() {
        List<BsonDocument> stages = PipelineProbe.everyStageInUse();
        List<String> names = new ArrayList<>();
        stages.forEach(stage -> names.add(stage.getFirstKey()));
        String json = new BsonDocument("p", new BsonArray(stages)).toJson();

        assertThat(names).contains("$replaceWith", "$set", "$unset");
        for (String operator :
                List.of("$cond", "$eq", "$type", "$add", "$literal", "$$NOW", "$$ROOT")) {
            assertThat(json).as(operator).contains("\"" + operator);
        }
        assertThat(stages)
                .as("the stages of a claim's insert, a takeover, a completion and a renewal")
                .containsSubsequence(
                        ServerStampedUpdates.insertClaim(
                                        PipelineProbe.PROBE_ID,
                                        new ServerStampedUpdates.NewClaim(
                                                "$probe", 1, new ClaimToken("0".repeat(32))),
                                        Duration.ofMinutes(1),
                                        MongoStoreSettings.MINIMUM_LEASE_GRACE)
                                .get(0));
    }

    @Test
    void onMongoJavaServer_findsNoPipelinesWithOneCommandThatFailsNothing() {
        // mongo-java-server logs every command it fails as an ERROR with a stack trace: a probe
        // that fails one puts it in the user's log at every start.
        Commands commands = new Commands();
        try (MongoClient client = mongo.client(commands)) {
            MongoCollection<BsonDocument> records =
                    client.getDatabase(MongoServerUnderTest.DATABASE)
                            .getCollection(collection, BsonDocument.class);
            PipelineProbe.Answer answer = PipelineProbe.ask(records, 13);

            assertThat(answer.runsPipelines()).isFalse();
            assertThat(answer.why()).contains("without reading it");
            assertThat(commands.failed).isEmpty();
            assertThat(commands.succeeded).containsExactly("findAndModify");
            assertThat(real.countDocuments()).isZero();
        }
    }

    @Test
    void afterRecordsExist_onMongoJavaServer_failsNoCommandAndChangesNothing() {
        BsonDocument record =
                new BsonDocument("_id", new BsonString("k")).append("n", new BsonString("v"));
        real.insertOne(record);
        Commands commands = new Commands();
        try (MongoClient client = mongo.client(commands)) {
            MongoCollection<BsonDocument> records =
                    client.getDatabase(MongoServerUnderTest.DATABASE)
                            .getCollection(collection, BsonDocument.class);

            assertThat(PipelineProbe.ask(records, 13).runsPipelines()).isFalse();
            assertThat(commands.failed).isEmpty();
            assertThat(real.find()).containsExactly(record);
        }
    }

    /** The names of the commands the server answered with an error, and of those it did not. */
    private static final class Commands implements CommandListener {
        final List<String> failed = new CopyOnWriteArrayList<>();
        final List<String> succeeded = new CopyOnWriteArrayList<>();

        @Override
        public void commandFailed(CommandFailedEvent event) {
            failed.add(event.getCommandName() + ": " + event.getThrowable());
        }

        @Override
        public void commandSucceeded(CommandSucceededEvent event) {
            succeeded.add(event.getCommandName());
        }
    }
}
