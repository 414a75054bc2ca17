package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The gate the waiters of one key claim through: one at a time, and nothing kept once unused. */
class KeyGateTest {

    private final KeyGate gate = new KeyGate();

    @Test
    void aSecondWaiter_waitsForTheFirstToLeave_andNothingIsKeptAfterwards() throws Exception {
        assertThat(gate.enter("k", 0)).isTrue();

        assertThat(gate.enter("k", TimeUnit.MILLISECONDS.toNanos(50)))
                .as("shut while the first is in")
                .isFalse();
        CompletableFuture<Boolean> second =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return gate.enter("k", TimeUnit.SECONDS.toNanos(10));
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        });
        gate.leave("k");
        assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
        gate.leave("k");

        assertThat(gate.size()).isZero();
    }

    @Test
    void gatesOfOtherKeys_areApart() throws Exception {
        assertThat(gate.enter("a", 0)).isTrue();
        assertThat(gate.enter("b", 0)).isTrue();
        gate.leave("a");
        gate.leave("b");

        assertThat(gate.size()).isZero();
    }
}
