package io.idemkit.store.mongo;

import static io.idemkit.store.mongo.Fixtures.FINGERPRINT;
import static io.idemkit.store.mongo.Fixtures.LONG;
import static io.idemkit.store.mongo.Fixtures.VERSION;
import static io.idemkit.store.mongo.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.spi.ClaimStatus;
import io.idemkit.testsupport.LoopbackProxy;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Commands that reach the server late (C9): on the fallback path a claim's lease end is stamped
 * when the claim is sent, so a lease shorter than the delay lands already spent and a second caller
 * takes the key over while the first runs. A lease that meets {@link MongoLeaseRule} still holds
 * the key when the same delayed claim lands. The delay (700 ms) stays inside the store's timeout (2
 * s), as the driver's own delays do.
 */
class MongoDelayedCommandTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final long DELAY_MILLIS = 700;

    private final InProcessMongo mongo = InProcessMongo.start();
    private final MongoStoreSettings settings = InProcessMongo.freshSettings();
    private LoopbackProxy proxy;
    private MongoIdempotencyStore delayed;
    private MongoIdempotencyStore direct;

    @BeforeEach
    void open() throws Exception {
        proxy = new LoopbackProxy(mongo.port());
        delayed =
                new MongoIdempotencyStore(
                        settings.withUri(
                                        "mongodb://127.0.0.1:"
                                                + proxy.port()
                                                + "/?directConnection=true")
                                .withTimeout(TIMEOUT),
                        Clock.systemUTC());
        direct = new MongoIdempotencyStore(mongo.sharedClient(), settings, Clock.systemUTC());
        // Start both stores before the delay: the clock estimate is measured on a quiet network,
        // as before a failover.
        delayed.now();
        direct.now();
        proxy.delayCommandsBy(DELAY_MILLIS);
    }

    @AfterEach
    void close() throws Exception {
        delayed.close();
        direct.close();
        proxy.close();
        mongo.close();
    }

    @Test
    void leaseShorterThanTheDelay_landsSpentAndLetsASecondCallerIn() {
        Duration shortLease = Duration.ofMillis(500);
        assertThat(MongoLeaseRule.problem("lease", shortLease, TIMEOUT)).isPresent();
        String key = key();

        assertThat(delayed.claim(key, FINGERPRINT, VERSION, shortLease).status())
                .isEqualTo(ClaimStatus.NEW);

        // The first caller has only just been told it holds the key; the server already finds
        // the lease over.
        assertThat(direct.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.LEASE_RECLAIMED);
    }

    @Test
    void leaseThatMeetsTheRule_stillHoldsTheKeyWhenTheDelayedClaimLands() {
        Duration lease = MongoLeaseRule.minimumLease(TIMEOUT);
        assertThat(MongoLeaseRule.problem("lease", lease, TIMEOUT)).isEmpty();
        String key = key();

        assertThat(delayed.claim(key, FINGERPRINT, VERSION, lease).status())
                .isEqualTo(ClaimStatus.NEW);

        assertThat(direct.claim(key, FINGERPRINT, VERSION, LONG).status())
                .isEqualTo(ClaimStatus.ALREADY_CLAIMED);
        Duration left =
                Duration.between(mongo.serverTime(), direct.find(key).orElseThrow().leaseUntil());
        assertThat(left).isGreaterThan(TIMEOUT.multipliedBy(2));
    }
}
