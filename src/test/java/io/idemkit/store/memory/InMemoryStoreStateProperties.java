package io.idemkit.store.memory;

import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.StoreUnderModel.TokenChoice;
import io.idemkit.testkit.StoreReferenceModel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.Transformer;
import net.jqwik.api.statistics.Statistics;

/**
 * Random chains of store operations against the in-memory store on a manual clock, and against
 * {@link StoreReferenceModel}, checked after every step: record states and transitions (C2), the
 * store SPI's answers and fencing (C3), per-key TTLs on an injected clock (C10).
 *
 * <p>Every action is {@link Action.Independent} and names its token symbolically ({@link
 * TokenChoice}), resolved against the model when the action runs. Tokens are random on every run,
 * so an action that captured a concrete token would mean nothing once jqwik shrinks the chain.
 *
 * <p>The store is built without a sweeper and with room for far more records than the chain can
 * touch, so nothing is purged behind the model's back and no thread outlives a try.
 */
class InMemoryStoreStateProperties {

    private static final int MAX_ACTIONS = 40;
    private static final List<String> FINGERPRINTS = List.of("fp-a", "fp-b");

    // Leases, retentions and clock steps straddle one another, and sums of steps land exactly on
    // lease and retention ends, where a record stops being live (now == leaseUntil is expired).
    private static final List<Duration> LEASE_TTLS = seconds(1, 5, 30);
    private static final List<Duration> COMPLETED_TTLS = seconds(2, 10, 60);
    private static final List<Duration> CLOCK_STEPS = seconds(0, 1, 2, 5, 10, 30, 61);

    private static final List<StoredResult> RESULTS =
            List.of(
                    new StoredResult(
                            200,
                            List.of(new StoredHeader("Content-Type", "application/json")),
                            "{\"n\":1}".getBytes(StandardCharsets.UTF_8)),
                    new StoredResult(
                            201,
                            List.of(new StoredHeader("Location", "/r/2")),
                            new byte[] {0, -1, 7}));

    @Property(tries = 1000)
    void randomActionSequences_agreeWithReferenceModel(
            @ForAll("chains") ActionChain<StoreUnderModel> chain) {
        chain.withInvariant(
                        "find, size and now agree with the model for every key",
                        StoreUnderModel::checkAgreement)
                .run();

        // The chains must reach the interesting states, or the agreement above proves little.
        Statistics.label("outcome")
                .coverage(
                        coverage -> {
                            for (String outcome :
                                    List.of(
                                            "claim NEW",
                                            "claim NEW over an expired result",
                                            "claim LEASE_RECLAIMED",
                                            "claim ALREADY_CLAIMED",
                                            "claim ALREADY_COMPLETED",
                                            "complete by owner",
                                            "complete by owner after the lease ran out",
                                            "complete refused: stale token",
                                            "complete refused: already completed",
                                            "release by owner",
                                            "release refused: stale token",
                                            "renew by owner after the lease ran out",
                                            "renew refused: stale token")) {
                                coverage.check(outcome).count(n -> n > 0);
                            }
                        });
    }

    @Provide
    Arbitrary<ActionChain<StoreUnderModel>> chains() {
        return ActionChain.startWith(StoreUnderModel::new)
                .withAction(4, claim())
                .withAction(3, complete())
                .withAction(2, release())
                .withAction(2, renew())
                .withAction(3, advanceClock())
                .withAction(1, find())
                .withAction(1, delete())
                .withAction(1, awaitCompletionWithoutWaiting())
                .withMaxTransformations(MAX_ACTIONS);
    }

    // --- actions -----------------------------------------------------------------------------

    private static Action.Independent<StoreUnderModel> claim() {
        return () ->
                Combinators.combine(
                                keys(), Arbitraries.of(FINGERPRINTS), Arbitraries.of(LEASE_TTLS))
                        .as(
                                (key, fingerprint, lease) ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "claim("
                                                        + key
                                                        + ", "
                                                        + fingerprint
                                                        + ", lease "
                                                        + show(lease)
                                                        + ")",
                                                s -> s.claim(key, fingerprint, lease)));
    }

    private static Action.Independent<StoreUnderModel> complete() {
        return () ->
                Combinators.combine(
                                keys(),
                                tokenChoices(),
                                picks(),
                                Arbitraries.integers().between(0, RESULTS.size() - 1),
                                Arbitraries.of(COMPLETED_TTLS))
                        .as(
                                (key, choice, pick, result, ttl) ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "complete("
                                                        + key
                                                        + ", "
                                                        + show(choice, pick)
                                                        + ", result "
                                                        + result
                                                        + ", ttl "
                                                        + show(ttl)
                                                        + ")",
                                                s ->
                                                        s.complete(
                                                                key,
                                                                choice,
                                                                pick,
                                                                RESULTS.get(result),
                                                                ttl)));
    }

    private static Action.Independent<StoreUnderModel> release() {
        return () ->
                Combinators.combine(keys(), tokenChoices(), picks())
                        .as(
                                (key, choice, pick) ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "release(" + key + ", " + show(choice, pick) + ")",
                                                s -> s.release(key, choice, pick)));
    }

    private static Action.Independent<StoreUnderModel> renew() {
        return () ->
                Combinators.combine(keys(), tokenChoices(), picks(), Arbitraries.of(LEASE_TTLS))
                        .as(
                                (key, choice, pick, lease) ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "renew("
                                                        + key
                                                        + ", "
                                                        + show(choice, pick)
                                                        + ", lease "
                                                        + show(lease)
                                                        + ")",
                                                s -> s.renew(key, choice, pick, lease)));
    }

    private static Action.Independent<StoreUnderModel> advanceClock() {
        return () ->
                Arbitraries.of(CLOCK_STEPS)
                        .map(
                                step ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "advanceClock(" + show(step) + ")",
                                                s -> s.advanceClock(step)));
    }

    private static Action.Independent<StoreUnderModel> find() {
        return () ->
                keys().map(
                                key ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "find(" + key + ")", s -> s.find(key)));
    }

    private static Action.Independent<StoreUnderModel> delete() {
        return () ->
                keys().map(
                                key ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "delete(" + key + ")", s -> s.delete(key)));
    }

    private static Action.Independent<StoreUnderModel> awaitCompletionWithoutWaiting() {
        return () ->
                keys().map(
                                key ->
                                        Transformer.<StoreUnderModel>mutate(
                                                "awaitCompletion(" + key + ", 0s)",
                                                s -> s.awaitCompletionWithoutWaiting(key)));
    }

    private static Arbitrary<String> keys() {
        return Arbitraries.of(StoreUnderModel.KEYS);
    }

    private static Arbitrary<TokenChoice> tokenChoices() {
        return Arbitraries.of(TokenChoice.class);
    }

    /** Which of several candidate tokens (stale ones, other keys' ones) to take, modulo. */
    private static Arbitrary<Integer> picks() {
        return Arbitraries.integers().between(0, 3);
    }

    // --- rendering ---------------------------------------------------------------------------

    private static List<Duration> seconds(long... values) {
        List<Duration> durations = new ArrayList<>();
        for (long value : values) {
            durations.add(Duration.ofSeconds(value));
        }
        return List.copyOf(durations);
    }

    private static String show(Duration duration) {
        return duration.toSeconds() + "s";
    }

    private static String show(TokenChoice choice, int pick) {
        return choice == TokenChoice.STALE || choice == TokenChoice.OTHER_KEY
                ? choice + "#" + pick
                : choice.toString();
    }
}
