package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.idemkit.IdempotencyEvent.Decision;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.testsupport.CapturedLog;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The bound on the threads that wait on one key (C4.3): a duplicate past it is answered as a wait
 * that timed out, at once, and never runs the operation; the waiters within it still replay.
 */
class IdempotencyEngineWaitersTest extends IdempotencyEngineFixture {

    /** Long enough that a duplicate that waits instead of being turned away is seen to. */
    private static final OperationPolicy LONG_WAIT = withWait(Duration.ofSeconds(20));

    private final IdempotencyEngine bounded =
            new IdempotencyEngine(store, events::add, heartbeat, Ticker.system(), 2);
    private final List<Thread> waiting = new CopyOnWriteArrayList<>();

    @Test
    void aDuplicatePastTheBound_isInProgressAtOnce_andNeverRuns_whileTheOthersReplay()
            throws Exception {
        Execution first = proceedOn(bounded);
        Future<Admission> one = waitOn(bounded);
        Future<Admission> two = waitOn(bounded);
        awaitParked(2);
        AtomicInteger runs = new AtomicInteger();

        long before = System.nanoTime();
        try (CapturedLog log = CapturedLog.of(IdempotencyEngine.class)) {
            assertThatThrownBy(
                            () ->
                                    bounded.execute(
                                            op("fp", LONG_WAIT),
                                            () -> "ran " + runs.incrementAndGet(),
                                            Codecs.TEXT,
                                            false))
                    .isInstanceOfSatisfying(
                            IdempotencyInProgressException.class,
                            e -> assertThat(e.retryAfter()).isEqualTo(LEASE));
            assertThatThrownBy(() -> bounded.admit(op("fp", LONG_WAIT)))
                    .isInstanceOf(IdempotencyInProgressException.class);
            // One warning for the flood, with the bound and the effective key, not one a request.
            assertThat(log.warnings())
                    .singleElement()
                    .satisfies(
                            w ->
                                    assertThat(w)
                                            .contains("e".repeat(64))
                                            .contains("idemkit.max-waiters-per-key"));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(10));
        assertThat(runs).hasValue(0);

        first.finish(created("one"));

        assertThat(one.get(10, TimeUnit.SECONDS)).isInstanceOf(Admission.Replay.class);
        assertThat(two.get(10, TimeUnit.SECONDS)).isInstanceOf(Admission.Replay.class);
        // The two turned away: a conflict each, as a timed-out wait, and no wait begun.
        assertThat(decisions()).filteredOn(d -> d == Decision.CONFLICT).hasSize(2);
        assertThat(decisions()).filteredOn(d -> d == Decision.IN_FLIGHT_WAIT).hasSize(2);
    }

    @Test
    void aWaiterThatLeaves_makesRoomForTheNext() throws Exception {
        IdempotencyEngine one =
                new IdempotencyEngine(store, events::add, heartbeat, Ticker.system(), 1);
        Execution first = proceedOn(one);
        Future<Admission> waiter = waitOn(one);
        awaitParked(1);
        assertThatThrownBy(() -> one.admit(op("fp", LONG_WAIT)))
                .isInstanceOf(IdempotencyInProgressException.class);

        first.release();
        Admission won = waiter.get(10, TimeUnit.SECONDS);
        assertThat(won).isInstanceOf(Admission.Proceed.class);
        waiting.clear();
        Future<Admission> next = waitOn(one);
        awaitParked(1);
        ((Admission.Proceed) won).execution().finish(created("two"));

        // Counted in, it waited and replays; still counted, it would have been turned away.
        assertThat(next.get(10, TimeUnit.SECONDS))
                .extracting(a -> ((Admission.Replay) a).result())
                .isEqualTo(created("two"));
    }

    @Test
    void theDefaultBound_is64() {
        assertThat(KeyWaiters.DEFAULT_LIMIT).isEqualTo(64);
        KeyWaiters waiters = new KeyWaiters(2);

        assertThat(waiters.enter("k")).isTrue();
        assertThat(waiters.enter("k")).isTrue();
        assertThat(waiters.enter("k")).isFalse();
        assertThat(waiters.enter("other")).isTrue();
        waiters.leave("k");
        assertThat(waiters.enter("k")).isTrue();
        waiters.leave("k");
        waiters.leave("k");
        assertThat(waiters.waitingOn("k")).isZero();
        assertThatThrownBy(() -> new KeyWaiters(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private Execution proceedOn(IdempotencyEngine on) {
        Admission admission = on.admit(op("fp", LONG_WAIT));
        assertThat(admission).isInstanceOf(Admission.Proceed.class);
        return ((Admission.Proceed) admission).execution();
    }

    private Future<Admission> waitOn(IdempotencyEngine on) {
        return pool.submit(
                () -> {
                    waiting.add(Thread.currentThread());
                    return on.admit(op("fp", LONG_WAIT));
                });
    }

    private long parkedCount() {
        return waiting.stream()
                .filter(
                        t ->
                                t.getState() == Thread.State.WAITING
                                        || t.getState() == Thread.State.TIMED_WAITING)
                .count();
    }

    private void awaitParked(int count) {
        await().atMost(Duration.ofSeconds(10)).until(() -> parkedCount() >= count);
    }
}
