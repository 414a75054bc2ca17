package io.idemkit.testkit;

import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.StoredHeader;
import io.idemkit.spi.StoredResult;
import io.idemkit.testkit.RandomCall.KeyArg;
import io.idemkit.testkit.RandomCall.KeyShape;
import io.idemkit.testkit.RandomCall.Op;
import io.idemkit.testkit.RandomCall.TimeoutArg;
import io.idemkit.testkit.RandomCall.TokenArg;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Random sequences of {@link RandomCall random calls}, for {@link RandomCallsContract}'s property:
 * mostly valid arguments, with every kind of invalid one mixed in.
 */
final class RandomCalls implements ArbitrarySupplier<List<RandomCall>> {

    /** How many keys a try has; {@link RandomCallsContract} makes that many. */
    static final int TRY_KEYS = 3;

    private static final int MAX_FINGERPRINT = io.idemkit.spi.StoreArguments.MAX_FINGERPRINT_LENGTH;
    private static final int V1 = IdempotencyRecord.CURRENT_FINGERPRINT_VERSION;

    @Override
    public Arbitrary<List<RandomCall>> get() {
        return Combinators.combine(
                        Arbitraries.of(Op.class),
                        keyArgs(),
                        fingerprints(),
                        versions(),
                        ttls(),
                        Arbitraries.of(TokenArg.class),
                        results(),
                        Arbitraries.of(TimeoutArg.class))
                .as(RandomCall::new)
                .list()
                .ofMinSize(1)
                .ofMaxSize(16);
    }

    private static Arbitrary<KeyArg> keyArgs() {
        Arbitrary<Integer> badCodePoints =
                Arbitraries.frequencyOf(
                        Tuple.of(2, Arbitraries.integers().between(0, 0x20)),
                        Tuple.of(1, Arbitraries.just(0x7F)),
                        Tuple.of(2, Arbitraries.integers().between(0xD800, 0xDFFF)),
                        Tuple.of(3, Arbitraries.integers().between(0x80, 0x10FFFF)));
        Arbitrary<KeyShape> shapes =
                Arbitraries.frequency(
                        Tuple.of(12, KeyShape.VALID),
                        Tuple.of(1, KeyShape.NULL),
                        Tuple.of(1, KeyShape.EMPTY),
                        Tuple.of(1, KeyShape.TOO_LONG),
                        Tuple.of(1, KeyShape.HUGE),
                        Tuple.of(2, KeyShape.BAD_CHARACTER));
        return Combinators.combine(
                        shapes, Arbitraries.integers().between(0, TRY_KEYS - 1), badCodePoints)
                .as(KeyArg::new);
    }

    private static Arbitrary<String> fingerprints() {
        return Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of("fp-a", "fp-b")),
                Tuple.of(
                        3,
                        Arbitraries.strings()
                                .withCharRange('!', '~')
                                .ofMinLength(1)
                                .ofMaxLength(MAX_FINGERPRINT)),
                Tuple.of(3, Arbitraries.strings().all().ofMaxLength(64)),
                Tuple.of(
                        1,
                        Arbitraries.strings()
                                .withCharRange('!', '~')
                                .ofMinLength(MAX_FINGERPRINT + 1)
                                .ofMaxLength(4 * MAX_FINGERPRINT)),
                Tuple.of(1, Arbitraries.just(null)));
    }

    private static Arbitrary<Integer> versions() {
        return Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just(V1)),
                Tuple.of(1, Arbitraries.of(0, -1, 2, 99, Integer.MIN_VALUE, Integer.MAX_VALUE)),
                Tuple.of(1, Arbitraries.integers()));
    }

    private static Arbitrary<Duration> ttls() {
        long maxSeconds = io.idemkit.spi.StoreArguments.MAX_TTL.getSeconds();
        return Arbitraries.frequencyOf(
                // Valid, and too long to run out during a try on any clock.
                Tuple.of(
                        8, Arbitraries.longs().between(3_600, maxSeconds).map(Duration::ofSeconds)),
                Tuple.of(1, Arbitraries.just(io.idemkit.spi.StoreArguments.MAX_TTL)),
                Tuple.of(1, Arbitraries.just(null)),
                Tuple.of(1, Arbitraries.just(Duration.ZERO)),
                Tuple.of(
                        1,
                        Arbitraries.longs().between(Long.MIN_VALUE, -1).map(Duration::ofSeconds)),
                Tuple.of(1, Arbitraries.longs().between(1, 999_999).map(Duration::ofNanos)),
                Tuple.of(
                        1,
                        Arbitraries.longs()
                                .between(maxSeconds, Long.MAX_VALUE - 1)
                                .map(seconds -> Duration.ofSeconds(seconds, 1))),
                Tuple.of(1, Arbitraries.just(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999))));
    }

    private static Arbitrary<StoredResult> results() {
        Arbitrary<String> texts =
                Arbitraries.frequencyOf(
                        Tuple.of(4, Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(30)),
                        Tuple.of(1, Arbitraries.strings().all().ofMaxLength(12)));
        Arbitrary<StoredHeader> headers = Combinators.combine(texts, texts).as(StoredHeader::new);
        Arbitrary<StoredResult> results =
                Combinators.combine(
                                Arbitraries.integers().between(100, 599),
                                headers.list().ofMaxSize(3),
                                Arbitraries.bytes().array(byte[].class).ofMaxSize(2048))
                        .as(StoredResult::new);
        return results.injectNull(0.1);
    }
}
