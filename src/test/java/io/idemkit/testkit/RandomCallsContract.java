package io.idemkit.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.RandomCall.KeyArg;
import io.idemkit.testkit.RandomCall.TimeoutArg;
import io.idemkit.testkit.RandomCall.TokenArg;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * Random arguments against {@link StoreReferenceModel} (C2, C3, and the input rules of {@link
 * IdempotencyStore}'s Javadoc): one jqwik property that throws {@link RandomCalls random sequences}
 * of {@link RandomCall random calls} at every SPI method and checks each against the model, with
 * the argument rules it checks them by.
 */
abstract class RandomCallsContract extends FencedCallInputRulesContract {

    private static final int MAX_FINGERPRINT = io.idemkit.spi.StoreArguments.MAX_FINGERPRINT_LENGTH;
    private static final Instant MODEL_START = Instant.parse("2026-01-01T00:00:00Z");

    /**
     * Random arguments, valid and not, at every SPI method, in random sequences on three fresh keys
     * (two like idemkit's, one of punctuation): every call either throws the exception the input
     * rules name for its first bad argument and changes nothing, or does what {@link
     * StoreReferenceModel} allows; after every call, {@code find} on each key agrees with the
     * model, so no call can have written part of a record. No other exception is allowed.
     *
     * <p>Valid leases and retentions here are an hour or more, so nothing runs out during a try and
     * the model needs no clock. jqwik runs this, not JUnit Jupiter: a store built in a field
     * initializer is there; one built in {@code @BeforeEach} must also be built in jqwik's
     * {@code @BeforeProperty}.
     */
    @Property(tries = 100)
    void randomArguments_throwTheDocumentedExceptionOrDoWhatTheModelAllows(
            @ForAll(supplier = RandomCalls.class) List<RandomCall> calls) throws Exception {
        IdempotencyStore store = store();
        List<String> keys =
                List.of(
                        newKey(),
                        newKey(),
                        newKey().substring(0, 16) + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
        StoreReferenceModel model = new StoreReferenceModel(MODEL_START);
        for (int step = 0; step < calls.size(); step++) {
            RandomCall call = calls.get(step);
            String where = "step " + step + ", " + call;
            try {
                perform(store, model, keys, call, where);
            } catch (AssertionError e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(where + " threw " + e, e);
            }
            for (int slot = 0; slot < keys.size(); slot++) {
                String key = keys.get(slot);
                assertSameRecord(
                        where + ", then find(key#" + slot + ")", model.find(key), store.find(key));
            }
        }
    }

    private static void perform(
            IdempotencyStore store,
            StoreReferenceModel model,
            List<String> keys,
            RandomCall call,
            String where)
            throws Exception {
        String base = keys.get(call.key().slot() % keys.size());
        String key = key(call.key(), base);
        ClaimToken token = token(call.token(), model, keys, base);
        Duration timeout = timeout(call.timeout(), model, key);
        List<Class<? extends Throwable>> problems =
                switch (call.op()) {
                    case CLAIM ->
                            problems(
                                    keyProblem(key),
                                    textProblem(call.fingerprint(), MAX_FINGERPRINT),
                                    call.version() < 1 ? IllegalArgumentException.class : null,
                                    ttlProblem(call.ttl()));
                    case COMPLETE ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null,
                                    resultProblem(call.result()),
                                    ttlProblem(call.ttl()));
                    case RELEASE ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null);
                    case RENEW ->
                            problems(
                                    keyProblem(key),
                                    token == null ? NullPointerException.class : null,
                                    ttlProblem(call.ttl()));
                    case AWAIT_COMPLETION ->
                            problems(
                                    keyProblem(key),
                                    timeout == null
                                            ? NullPointerException.class
                                            : timeout.isNegative()
                                                    ? IllegalArgumentException.class
                                                    : null);
                    case FIND, DELETE -> problems(keyProblem(key));
                };
        if (!problems.isEmpty()) {
            Class<? extends Throwable> expected = problems.get(0);
            Throwable thrown = catchThrowable(() -> invoke(store, call, key, token, timeout));
            assertThat(thrown)
                    .as("%s: the first bad argument calls for %s", where, expected.getSimpleName())
                    .isInstanceOf(expected);
            return; // the model is unchanged; the finds after the call check the store is too
        }
        switch (call.op()) {
            case CLAIM -> {
                ClaimStatus status = model.claimStatus(key);
                Optional<StoreReferenceModel.Entry> before = model.held(key);
                ClaimResult claim =
                        store.claim(key, call.fingerprint(), call.version(), call.ttl());
                assertThat(claim.status()).as(where).isEqualTo(status);
                if (status.won()) {
                    // No claim writes an unreadable record, whatever its version (C3).
                    assertThat(claim.recoveredFromCorrupt()).as(where + ": recovered").isFalse();
                    assertThat(model.everIssued(claim.token()))
                            .as(where + ": the token is new")
                            .isFalse();
                    IdempotencyRecord written =
                            model.won(
                                    key,
                                    call.fingerprint(),
                                    call.version(),
                                    claim.token(),
                                    call.ttl());
                    assertSameRecord(where, Optional.of(written), Optional.of(claim.record()));
                } else {
                    assertSameRecord(
                            where, before.map(e -> e.toRecord(key)), Optional.of(claim.record()));
                }
            }
            case COMPLETE ->
                    assertThat(store.complete(key, token, call.result(), call.ttl()))
                            .as(where)
                            .isEqualTo(model.complete(key, token, call.result(), call.ttl()));
            case RELEASE ->
                    assertThat(store.release(key, token))
                            .as(where)
                            .isEqualTo(model.release(key, token));
            case RENEW ->
                    assertThat(store.renew(key, token, call.ttl()))
                            .as(where)
                            .isEqualTo(model.renew(key, token, call.ttl()));
            case AWAIT_COMPLETION ->
                    assertSameRecord(
                            where, model.completedNow(key), store.awaitCompletion(key, timeout));
            case FIND -> assertSameRecord(where, model.find(key), store.find(key));
            case DELETE -> assertThat(store.delete(key)).as(where).isEqualTo(model.delete(key));
        }
    }

    private static Object invoke(
            IdempotencyStore store, RandomCall call, String key, ClaimToken token, Duration timeout)
            throws Exception {
        return switch (call.op()) {
            case CLAIM -> store.claim(key, call.fingerprint(), call.version(), call.ttl());
            case COMPLETE -> store.complete(key, token, call.result(), call.ttl());
            case RELEASE -> store.release(key, token);
            case RENEW -> store.renew(key, token, call.ttl());
            case AWAIT_COMPLETION -> store.awaitCompletion(key, timeout);
            case FIND -> store.find(key);
            case DELETE -> store.delete(key);
        };
    }

    @SafeVarargs
    private static List<Class<? extends Throwable>> problems(
            Class<? extends Throwable>... inParameterOrder) {
        List<Class<? extends Throwable>> found = new ArrayList<>();
        for (Class<? extends Throwable> problem : inParameterOrder) {
            if (problem != null) {
                found.add(problem);
            }
        }
        return found;
    }

    private static String key(KeyArg arg, String base) {
        return switch (arg.shape()) {
            case VALID -> base;
            case NULL -> null;
            case EMPTY -> "";
            case TOO_LONG -> base + "a".repeat(Math.max(1, MAX_KEY - base.length() + 1));
            case HUGE -> base.repeat((1 << 20) / base.length());
            case BAD_CHARACTER ->
                    new StringBuilder(base).appendCodePoint(arg.badCodePoint()).toString();
        };
    }

    private static ClaimToken token(
            TokenArg arg, StoreReferenceModel model, List<String> keys, String base) {
        Optional<ClaimToken> held = model.held(base).map(StoreReferenceModel.Entry::token);
        Optional<ClaimToken> chosen =
                switch (arg) {
                    case NULL -> Optional.empty();
                    case OWNER -> held;
                    case STALE ->
                            model.issuedFor(base).stream()
                                    .filter(t -> held.map(h -> !h.equals(t)).orElse(true))
                                    .findFirst();
                    case OTHER_KEY ->
                            keys.stream()
                                    .filter(k -> !k.equals(base))
                                    .flatMap(
                                            k ->
                                                    model
                                                            .held(k)
                                                            .map(StoreReferenceModel.Entry::token)
                                                            .stream())
                                    .findFirst();
                    case NEVER_ISSUED -> Optional.of(ClaimToken.random());
                };
        return arg == TokenArg.NULL ? null : chosen.orElseGet(ClaimToken::random);
    }

    private static Duration timeout(TimeoutArg arg, StoreReferenceModel model, String key) {
        return switch (arg) {
            case NULL -> null;
            case NEGATIVE -> Duration.ofMillis(-1);
            case ZERO -> Duration.ZERO;
            case FIVE_MILLISECONDS -> Duration.ofMillis(5);
            case LONGEST -> {
                boolean wouldWait =
                        key != null
                                && model.held(key)
                                        .filter(e -> e.state() == RecordState.CLAIMED)
                                        .isPresent();
                yield wouldWait ? Duration.ZERO : Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
            }
        };
    }

    private static Class<? extends Throwable> keyProblem(String key) {
        return textProblem(key, MAX_KEY);
    }

    /** The rule for keys and fingerprints: 1 to {@code max} printable ASCII characters. */
    private static Class<? extends Throwable> textProblem(String text, int max) {
        if (text == null) {
            return NullPointerException.class;
        }
        if (text.isEmpty()
                || text.length() > max
                || text.chars().anyMatch(c -> c < 0x21 || c > 0x7E)) {
            return IllegalArgumentException.class;
        }
        return null;
    }

    /** The rule for leases and retentions: 1 ms to 100 years. */
    private static Class<? extends Throwable> ttlProblem(Duration ttl) {
        if (ttl == null) {
            return NullPointerException.class;
        }
        if (ttl.compareTo(Duration.ofMillis(1)) < 0
                || ttl.compareTo(io.idemkit.spi.StoreArguments.MAX_TTL) > 0) {
            return IllegalArgumentException.class;
        }
        return null;
    }

    /** The rule for results: present, and headers of well-formed Unicode. */
    private static Class<? extends Throwable> resultProblem(StoredResult result) {
        if (result == null) {
            return NullPointerException.class;
        }
        for (StoredHeader header : result.headers()) {
            if (!wellFormed(header.name()) || !wellFormed(header.value())) {
                return IllegalArgumentException.class;
            }
        }
        return null;
    }

    private static boolean wellFormed(String text) {
        return text.codePoints()
                .noneMatch(cp -> cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE);
    }

    /**
     * The record fields a store must keep exactly; times are the store's own, so they are checked
     * only for order.
     */
    private static void assertSameRecord(
            String where,
            Optional<IdempotencyRecord> expected,
            Optional<IdempotencyRecord> actual) {
        assertThat(actual.isPresent())
                .as("%s: a record is there (expected %s)", where, expected.isPresent())
                .isEqualTo(expected.isPresent());
        if (expected.isEmpty()) {
            return;
        }
        IdempotencyRecord e = expected.get();
        IdempotencyRecord a = actual.get();
        assertThat(a.key()).as(where + ": key").isEqualTo(e.key());
        assertThat(a.state()).as(where + ": state").isEqualTo(e.state());
        assertThat(a.fingerprint()).as(where + ": fingerprint").isEqualTo(e.fingerprint());
        assertThat(a.fingerprintVersion())
                .as(where + ": fingerprint version")
                .isEqualTo(e.fingerprintVersion());
        assertThat(a.token()).as(where + ": token").isEqualTo(e.token());
        assertThat(a.result()).as(where + ": result").isEqualTo(e.result());
        assertThat(a.leaseUntil()).as(where + ": lease end").isAfterOrEqualTo(a.claimedAt());
        if (a.completedAt() != null) {
            assertThat(a.expiresAt()).as(where + ": expiry").isAfter(a.completedAt());
        }
    }
}
