package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LEASE;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static io.idemkit.store.mongo.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimStatus;
import io.idemkit.spi.ClaimToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import org.assertj.core.data.TemporalUnitOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JVM clock takes no lease or expiry decision (C3, C9): a client clock skewed by a million
 * seconds, or jumping by as much mid-run, changes no outcome and leaves every stamp on the server's
 * time.
 */
abstract class MongoClockSkewContract {

    /** The server under test, shared by the tests of the class. */
    abstract MongoServerUnderTest mongo();

    private static final long MILLION_SECONDS = 1_000_000;
    private static final TemporalUnitOffset CLOSE = within(1, ChronoUnit.SECONDS);

    @ParameterizedTest(name = "client clock skewed by {0} s")
    @ValueSource(longs = {-MILLION_SECONDS, 0, MILLION_SECONDS})
    void skewedClientClock_changesNoDecisionAndLeavesStampsRight(long skewSeconds) {
        Clock skewed = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(skewSeconds));
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        mongo().sharedClient(), mongo().preparedSettings(), skewed)) {
            String held = key();
            String key = key();

            ClaimResult live = store.claim(held, FINGERPRINT, VERSION, LONG);
            assertThat(live.status()).isEqualTo(ClaimStatus.NEW);
            assertStampedNow(live.record().claimedAt());
            assertThat(live.record().leaseUntil()).isEqualTo(live.record().claimedAt().plus(LONG));
            assertThat(store.claim(held, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);

            ClaimResult first = store.claim(key, FINGERPRINT, VERSION, LEASE);
            assertThat(first.status()).isEqualTo(ClaimStatus.NEW);
            mongo().waitUntilPast(first.record().leaseUntil());
            ClaimResult reclaim = store.claim(key, FINGERPRINT, VERSION, LONG);
            assertThat(reclaim.status()).isEqualTo(ClaimStatus.LEASE_RECLAIMED);
            assertStampedNow(reclaim.record().claimedAt());

            assertThat(store.complete(held, live.token(), result("x"), LONG)).isTrue();
            ClaimResult replay = store.claim(held, FINGERPRINT, VERSION, LONG);
            assertThat(replay.status()).isEqualTo(ClaimStatus.ALREADY_COMPLETED);
            assertStampedNow(replay.record().completedAt());
            assertThat(replay.record().expiresAt())
                    .isEqualTo(replay.record().completedAt().plus(LONG));

            assertThat(store.complete(key, reclaim.token(), result("x"), LEASE)).isTrue();
            // Retained until at most LEASE after the server's time once complete returned.
            mongo().waitUntilPast(mongo().serverTime().plus(LEASE));
            assertThat(store.find(key)).isEmpty();
            assertThat(store.claim(key, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.NEW);
            assertStampedNow(store.now());
        }
    }

    @Test
    void clientClockJumpingMidRun_isCaughtBeforeTheNextStamp() {
        JumpingClock clock = new JumpingClock();
        try (MongoIdempotencyStore store =
                new MongoIdempotencyStore(
                        mongo().sharedClient(), mongo().preparedSettings(), clock)) {
            String held = key();
            store.claim(held, FINGERPRINT, VERSION, LONG);

            // Forward by a million seconds: the lease is still the server's to judge.
            clock.jump(Duration.ofSeconds(MILLION_SECONDS));
            assertThat(store.claim(held, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            assertStampedNow(store.claim(key(), FINGERPRINT, VERSION, LONG).record().claimedAt());

            // Back by two million: a backward step is caught at once.
            clock.jump(Duration.ofSeconds(-2 * MILLION_SECONDS));
            assertThat(store.claim(held, FINGERPRINT, VERSION, LONG).status())
                    .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            assertStampedNow(store.claim(key(), FINGERPRINT, VERSION, LONG).record().claimedAt());

            // Back by five seconds, well inside the refresh period: caught too.
            clock.jump(Duration.ofSeconds(-5));
            assertStampedNow(store.claim(key(), FINGERPRINT, VERSION, LONG).record().claimedAt());
            assertStampedNow(store.now());
        }
    }

    @Test
    void clientClockJumpingAheadUnnoticed_neverTakesOverALiveLease() {
        JumpingClock clock = new JumpingClock();
        MongoStoreSettings settings = mongo().preparedSettings();
        try (MongoIdempotencyStore owner =
                        new MongoIdempotencyStore(
                                mongo().sharedClient(), settings, Clock.systemUTC());
                MongoIdempotencyStore skewed =
                        new MongoIdempotencyStore(mongo().sharedClient(), settings, clock)) {
            skewed.now(); // measure the offset before the jump
            String key = key();
            ClaimToken held =
                    owner.claim(key, FINGERPRINT, VERSION, Duration.ofSeconds(20)).token();

            // Forward by less than the refresh period: the estimate now runs 25 s ahead, and by
            // it the 20 s lease has run out. Only the server's clock may decide a takeover.
            clock.jump(Duration.ofSeconds(25));
            ClaimResult claim = skewed.claim(key, FINGERPRINT, VERSION, LONG);

            assertThat(claim.status()).isEqualTo(ClaimStatus.ALREADY_CLAIMED);
            assertThat(claim.record().token()).isEqualTo(held);
            assertThat(owner.complete(key, held, result("owner"), LONG)).isTrue();
        }
    }

    private void assertStampedNow(Instant stamp) {
        assertThat(stamp).isCloseTo(mongo().serverTime(), CLOSE);
    }

    /** The system clock plus an offset a test can change at any moment. Thread-safe. */
    private static final class JumpingClock extends Clock {

        private volatile Duration offset = Duration.ZERO;

        void jump(Duration by) {
            offset = offset.plus(by);
        }

        @Override
        public Instant instant() {
            return Clock.systemUTC().instant().plus(offset);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
