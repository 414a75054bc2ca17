package io.idemkit.store.mongo;

import static org.assertj.core.api.Assertions.assertThat;

import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ClusterId;
import com.mongodb.connection.ClusterType;
import com.mongodb.connection.ServerConnectionState;
import com.mongodb.connection.ServerDescription;
import com.mongodb.connection.ServerType;
import com.mongodb.event.ClusterDescriptionChangedEvent;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * How the server's time is estimated on the fallback path (C9): the fastest of a few samples, slow
 * samples distrusted, and a re-measure when the driver reports a new primary. The client clock is
 * manual; each simulated sample moves it by its round trip.
 */
class ServerTimeEstimateTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final long OFFSET = 7_000; // the server runs 7 s ahead of the client

    private final ManualClock client = new ManualClock(START);

    /** Samples answered in order: each round trip, and where in it the server read its clock. */
    private final Deque<long[]> samples = new ArrayDeque<>();

    private int asked;

    private final Supplier<Instant> server =
            () -> {
                asked++;
                long[] sample = samples.isEmpty() ? new long[] {10, 5} : samples.removeFirst();
                client.advance(Duration.ofMillis(sample[1]));
                Instant read = client.instant().plusMillis(OFFSET);
                client.advance(Duration.ofMillis(sample[0] - sample[1]));
                return read;
            };

    private final ServerTimeEstimate estimate = new ServerTimeEstimate(client, server);

    private void answer(long roundTripMillis, long serverReadsAfterMillis) {
        samples.addLast(new long[] {roundTripMillis, serverReadsAfterMillis});
    }

    /** The estimate's offset: now() adds it to the client reading taken before any sample. */
    private long offset() {
        long reading = client.millis();
        return estimate.now().toEpochMilli() - reading;
    }

    @Test
    void oneSlowSample_isOutvotedByTheFastest() {
        // The first sample spends 900 ms in server selection before the server reads its clock:
        // its midpoint would be 450 ms off. The fastest (10 ms) is off by at most 5 ms.
        answer(900, 890);
        answer(10, 5);
        answer(40, 20);

        assertThat(offset()).isEqualTo(OFFSET);
        assertThat(asked).isEqualTo(ServerTimeEstimate.SAMPLES);
    }

    @Test
    void everySampleSlowOnTheFirstMeasurement_usesTheFastestAnyway() {
        answer(3_000, 2_900);
        answer(1_500, 1_400);
        answer(2_000, 1_000);

        // fastest: 1.5 s round trip, server read 1.4 s in, midpoint 0.75 s in: 650 ms off.
        assertThat(offset()).isEqualTo(OFFSET + 650);
    }

    @Test
    void everySampleSlowLater_keepsThePreviousOffsetWhenTheyAgreeWithIt() {
        assertThat(offset()).isEqualTo(OFFSET);
        client.advance(ServerTimeEstimate.REFRESH_EVERY);
        answer(1_500, 1_400);
        answer(1_500, 1_400);
        answer(1_500, 1_400);

        assertThat(offset()).isEqualTo(OFFSET);
        assertThat(asked).isEqualTo(2 * ServerTimeEstimate.SAMPLES);
    }

    @Test
    void newPrimaryReportedByTheDriver_makesTheNextUseMeasureAgain() {
        PrimaryWatch watch = new PrimaryWatch(estimate::primaryChanged);
        watch.clusterDescriptionChanged(event(primary("a", 27017), cluster()));
        estimate.now();
        estimate.now();
        assertThat(asked).isEqualTo(ServerTimeEstimate.SAMPLES);

        watch.clusterDescriptionChanged(event(cluster(), primary("a", 27017)));
        estimate.now();
        assertThat(asked).as("an election without a primary yet").isEqualTo(3);

        watch.clusterDescriptionChanged(event(primary("b", 27017), cluster()));
        estimate.now();
        assertThat(asked).isEqualTo(2 * ServerTimeEstimate.SAMPLES);
        estimate.now();
        assertThat(asked).isEqualTo(2 * ServerTimeEstimate.SAMPLES);
    }

    @Test
    void samePrimaryReportedAgain_measuresNothing() {
        PrimaryWatch watch = new PrimaryWatch(estimate::primaryChanged);
        watch.observe(primary("a", 27017));
        estimate.now();
        watch.observe(primary("a", 27017));
        estimate.now();

        assertThat(asked).isEqualTo(ServerTimeEstimate.SAMPLES);
    }

    private static ClusterDescriptionChangedEvent event(
            ClusterDescription now, ClusterDescription before) {
        return new ClusterDescriptionChangedEvent(new ClusterId(), now, before);
    }

    private static ClusterDescription cluster(ServerDescription... members) {
        return new ClusterDescription(
                ClusterConnectionMode.MULTIPLE, ClusterType.REPLICA_SET, List.of(members));
    }

    private static ClusterDescription primary(String host, int port) {
        return cluster(
                ServerDescription.builder()
                        .address(new ServerAddress(host, port))
                        .state(ServerConnectionState.CONNECTED)
                        .ok(true)
                        .type(ServerType.REPLICA_SET_PRIMARY)
                        .build());
    }
}
