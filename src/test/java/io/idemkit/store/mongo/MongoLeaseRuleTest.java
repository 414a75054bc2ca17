package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The deploy-time lease rule of the MongoDB store (C4.7, C9). */
class MongoLeaseRuleTest {

    @Test
    void minimumLease_isThreeTimeoutsPlusThreeSeconds() {
        assertThat(MongoLeaseRule.minimumLease(Duration.ofSeconds(5)))
                .isEqualTo(Duration.ofSeconds(18));
        assertThat(MongoLeaseRule.minimumLease(Duration.ofMillis(500)))
                .isEqualTo(Duration.ofMillis(4_500));
    }

    @Test
    void leaseAtTheMinimum_isAccepted() {
        assertThat(
                        MongoLeaseRule.problem(
                                "idemkit.lease-ttl=18s",
                                Duration.ofSeconds(18),
                                Duration.ofSeconds(5)))
                .isEmpty();
    }

    @Test
    void leaseOneMillisecondShort_isRefusedNamingBothKeysAndTheSmallestValidValue() {
        assertThat(
                        MongoLeaseRule.problem(
                                "idemkit.lease-ttl=17999ms",
                                Duration.ofMillis(17_999),
                                Duration.ofSeconds(5)))
                .hasValueSatisfying(
                        message ->
                                assertThat(message)
                                        .startsWith("Invalid idemkit.lease-ttl=17999ms: ")
                                        .contains("idemkit.mongo.timeout=5s")
                                        .contains("Set it to 18s or more")
                                        .contains("lower idemkit.mongo.timeout"));
    }

    @Test
    void theDefaults_meetTheRule() {
        assertThat(
                        MongoLeaseRule.problem(
                                "idemkit.lease-ttl=30s",
                                Duration.ofSeconds(30),
                                MongoStoreSettings.DEFAULT_TIMEOUT))
                .isEmpty();
    }

    /**
     * The rule's arithmetic: after the worst claim (the whole timeout), the first renewal a third
     * of the lease later (the whole timeout again) and the worst clock error, the renewal lands
     * just as the lease ends at the minimum, inside it above the minimum, and after it below.
     */
    @Test
    void minimum_isWhereTheWorstRenewalLandsAsTheLeaseEnds() {
        Duration timeout = Duration.ofSeconds(5);
        Duration minimum = MongoLeaseRule.minimumLease(timeout);

        assertThat(worstRenewalLanding(minimum, timeout)).isEqualTo(leaseEnd(minimum));
        Duration above = minimum.plusMillis(30);
        assertThat(worstRenewalLanding(above, timeout)).isLessThan(leaseEnd(above));
        Duration below = minimum.minusMillis(30);
        assertThat(worstRenewalLanding(below, timeout)).isGreaterThan(leaseEnd(below));
    }

    private static Duration worstRenewalLanding(Duration lease, Duration timeout) {
        return timeout.plus(lease.dividedBy(3)).plus(timeout);
    }

    private static Duration leaseEnd(Duration lease) {
        return lease.minus(ClaimAlgorithm.LIVE_MARGIN);
    }
}
