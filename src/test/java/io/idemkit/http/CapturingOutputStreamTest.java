package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Counting and holding the written body (C6.5): bytes really written, not Content-Length. */
class CapturingOutputStreamTest {

    private final ByteArrayOutputStream wire = new ByteArrayOutputStream();
    private final AtomicInteger overflows = new AtomicInteger();

    private CapturingOutputStream capture(int limit) {
        return new CapturingOutputStream(wire, limit, overflows::incrementAndGet);
    }

    @Test
    void bodyWithinTheLimit_isHeldUntilReleased_evenWhenFlushed() throws Exception {
        CapturingOutputStream out = capture(10);
        out.write("hello".getBytes());
        out.flush();
        out.close();

        assertThat(wire.size()).isZero();
        assertThat(out.overflowed()).isFalse();
        assertThat(out.body()).isEqualTo("hello".getBytes());

        out.release();
        assertThat(wire.toString()).isEqualTo("hello");
    }

    @Test
    void bodyExactlyAtTheLimit_isHeld() throws Exception {
        CapturingOutputStream out = capture(5);
        out.write("hel".getBytes());
        out.write("lo".getBytes());

        assertThat(out.overflowed()).isFalse();
        assertThat(overflows).hasValue(0);
    }

    @Test
    void bodyOverTheLimit_overflowsOnceBeforeAnyByteGoesOut_thenPassesThrough() throws Exception {
        CapturingOutputStream out =
                new CapturingOutputStream(
                        wire,
                        5,
                        () -> {
                            assertThat(wire.size()).isZero(); // headers can still change
                            overflows.incrementAndGet();
                        });
        out.write("hel".getBytes());
        out.write("lo!".getBytes());
        out.write('?');

        assertThat(out.overflowed()).isTrue();
        assertThat(overflows).hasValue(1);
        assertThat(wire.toString()).isEqualTo("hello!?");
    }
}
