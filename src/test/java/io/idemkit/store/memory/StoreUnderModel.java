package io.idemkit.store.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testkit.StoreReferenceModel;
import io.idemkit.testkit.StoreReferenceModel.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.statistics.Statistics;

/**
 * One try's state for {@link InMemoryStoreStateProperties}: a fresh in-memory store on its own
 * manual clock, and a fresh {@link StoreReferenceModel} at the same time, side by side. Each action
 * runs on both and checks that they answer alike; {@link #checkAgreement()} is the invariant after
 * every step (C2, C3, C10).
 */
final class StoreUnderModel {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    static final List<String> KEYS = List.of("k0", "k1", "k2", "k3");
    private static final int V1 = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    /** Which token a complete, release or renew presents, chosen when the action runs. */
    enum TokenChoice {
        /** The token of the record now held under the key, whatever its state. */
        OWNER,
        /** A token issued earlier for the key that is not the held record's. */
        STALE,
        /** The token of a record held under another key. */
        OTHER_KEY,
        /** A token no claim ever drew. */
        NEVER_ISSUED
    }

    private final ManualClock clock = new ManualClock(START);
    private final InMemoryIdempotencyStore store =
            new InMemoryIdempotencyStore(clock, InMemoryIdempotencyStore.DEFAULT_MAX_SIZE);
    private final StoreReferenceModel model = new StoreReferenceModel(START);
    private final Map<ClaimToken, String> tokenNames = new HashMap<>();

    void claim(String key, String fingerprint, Duration lease) {
        Optional<Entry> before = model.held(key);
        ClaimStatus expected = model.claimStatus(key);
        ClaimResult actual = store.claim(key, fingerprint, V1, lease);

        if (!expected.won()) {
            // A live record is reported untouched, token and all (C3).
            agree(
                    "claim(" + key + ") on a live record",
                    ClaimResult.of(expected, before.orElseThrow().toRecord(key)),
                    actual);
            outcome("claim " + expected);
            return;
        }
        assertThat(actual.status())
                .as("claim(%s) status; held before: %s", key, renderHeld(before, key))
                .isEqualTo(expected);
        ClaimToken token = actual.token();
        assertThat(model.everIssued(token))
                .as("claim(%s) drew a token that an earlier claim already had", key)
                .isFalse();
        tokenNames.put(token, key + "#" + model.issuedFor(key).size());
        IdempotencyRecord written = model.won(key, fingerprint, token, lease);
        agree("claim(" + key + ") that won", new ClaimResult(expected, written, false), actual);
        outcome(
                expected == ClaimStatus.NEW && before.isPresent()
                        ? "claim NEW over an expired result"
                        : "claim " + expected);
    }

    void complete(String key, TokenChoice choice, int pick, StoredResult result, Duration ttl) {
        ClaimToken token = resolve(key, choice, pick);
        String verdict = verdict("complete", key, token);
        boolean expected = model.complete(key, token, result, ttl);
        boolean actual = store.complete(key, token, result, ttl);
        assertThat(actual)
                .as("complete(%s, %s): %s", key, name(token), verdict)
                .isEqualTo(expected);
        outcome(verdict);
    }

    void release(String key, TokenChoice choice, int pick) {
        ClaimToken token = resolve(key, choice, pick);
        String verdict = verdict("release", key, token);
        boolean expected = model.release(key, token);
        boolean actual = store.release(key, token);
        assertThat(actual).as("release(%s, %s): %s", key, name(token), verdict).isEqualTo(expected);
        outcome(verdict);
    }

    void renew(String key, TokenChoice choice, int pick, Duration lease) {
        ClaimToken token = resolve(key, choice, pick);
        String verdict = verdict("renew", key, token);
        boolean expected = model.renew(key, token, lease);
        boolean actual = store.renew(key, token, lease);
        assertThat(actual).as("renew(%s, %s): %s", key, name(token), verdict).isEqualTo(expected);
        outcome(verdict);
    }

    void advanceClock(Duration step) {
        clock.advance(step);
        model.advance(step);
    }

    void find(String key) {
        agree("find(" + key + ")", model.find(key), store.find(key));
    }

    void delete(String key) {
        boolean expected = model.delete(key);
        assertThat(store.delete(key)).as("delete(%s)", key).isEqualTo(expected);
    }

    void awaitCompletionWithoutWaiting(String key) {
        Optional<IdempotencyRecord> actual;
        try {
            actual = store.awaitCompletion(key, Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("awaitCompletion with a zero timeout was interrupted", e);
        }
        agree("awaitCompletion(" + key + ", 0s)", model.completedNow(key), actual);
    }

    /** The invariant after every step. */
    void checkAgreement() {
        assertThat(store.now()).as("the store's clock").isEqualTo(model.now());
        for (String key : KEYS) {
            agree("find(" + key + ") after the step", model.find(key), store.find(key));
        }
        // Nothing is purged here, so the store holds exactly what the model holds (C10).
        assertThat(store.size()).as("records held").isEqualTo(model.size());
        // And its byte estimate is that of what it holds, after every change (C10.1).
        long bytes = 0;
        for (String key : KEYS) {
            Optional<Entry> held = model.held(key);
            if (held.isPresent()) {
                Entry entry = held.get();
                bytes += MemoryBudget.footprint(entry.toRecord(key));
            }
        }
        assertThat(store.bytes()).as("bytes held").isEqualTo(bytes);
    }

    private ClaimToken resolve(String key, TokenChoice choice, int pick) {
        Optional<ClaimToken> current = model.held(key).map(Entry::token);
        List<ClaimToken> candidates = new ArrayList<>();
        switch (choice) {
            case OWNER -> current.ifPresent(candidates::add);
            case STALE ->
                    model.issuedFor(key).stream()
                            .filter(t -> current.map(c -> !c.equals(t)).orElse(true))
                            .forEach(candidates::add);
            case OTHER_KEY ->
                    KEYS.stream()
                            .filter(k -> !k.equals(key))
                            .flatMap(k -> model.held(k).map(Entry::token).stream())
                            .forEach(candidates::add);
            case NEVER_ISSUED -> {}
        }
        if (candidates.isEmpty()) {
            ClaimToken fresh = ClaimToken.random();
            tokenNames.put(fresh, "never-issued");
            return fresh;
        }
        return candidates.get(pick % candidates.size());
    }

    /** Why the model accepts or refuses a fenced call, for the outcome statistics. */
    private String verdict(String operation, String key, ClaimToken token) {
        Optional<Entry> held = model.held(key);
        if (held.isEmpty()) {
            return operation + " refused: nothing held";
        }
        Entry entry = held.get();
        if (entry.state() == RecordState.COMPLETED) {
            return operation + " refused: already completed";
        }
        if (entry.token().equals(token)) {
            return entry.liveAt(model.now())
                    ? operation + " by owner"
                    : operation + " by owner after the lease ran out";
        }
        return model.issuedFor(key).contains(token)
                ? operation + " refused: stale token"
                : operation + " refused: foreign token";
    }

    private static void outcome(String outcome) {
        Statistics.label("outcome").collect(outcome);
    }

    private void agree(String what, Object expected, Object actual) {
        // Tokens print as "ClaimToken[…]", so compare the objects but show our own rendering.
        assertThat(actual)
                .withFailMessage(
                        () ->
                                what
                                        + " disagrees with the model\n  expected: "
                                        + render(expected)
                                        + "\n  actual:   "
                                        + render(actual))
                .isEqualTo(expected);
    }

    private String render(Object value) {
        if (value instanceof Optional<?> optional) {
            return optional.map(v -> "Optional[" + render(v) + "]").orElse("Optional.empty");
        }
        if (value instanceof ClaimResult result) {
            return result.status()
                    + (result.recoveredFromCorrupt() ? " (recovered)" : "")
                    + " "
                    + render(result.record());
        }
        if (value instanceof IdempotencyRecord r) {
            return r.key()
                    + " "
                    + r.state()
                    + " fp="
                    + r.fingerprint()
                    + " v"
                    + r.fingerprintVersion()
                    + " token="
                    + name(r.token())
                    + " claimedAt="
                    + show(r.claimedAt())
                    + " leaseUntil="
                    + show(r.leaseUntil())
                    + " completedAt="
                    + show(r.completedAt())
                    + " expiresAt="
                    + show(r.expiresAt())
                    + " result="
                    + r.result();
        }
        return String.valueOf(value);
    }

    private String renderHeld(Optional<Entry> entry, String key) {
        return render(entry.map(e -> e.toRecord(key)));
    }

    private String name(ClaimToken token) {
        return tokenNames.getOrDefault(token, "unknown-token");
    }

    /** jqwik prints this as the final state of a failing chain. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("at " + show(model.now()) + " the model holds");
        for (String key : KEYS) {
            text.append("\n  ")
                    .append(key)
                    .append(": ")
                    .append(model.held(key).map(e -> render(e.toRecord(key))).orElse("nothing"));
        }
        return text.toString();
    }

    private static String show(Instant instant) {
        return instant == null ? "-" : "t+" + Duration.between(START, instant).toSeconds() + "s";
    }
}
