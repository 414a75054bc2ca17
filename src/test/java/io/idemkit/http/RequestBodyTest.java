package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The bounded copy of a request body (C6.9): fingerprinted up to the cap, handed on whole. */
class RequestBodyTest {

    private static final long UNKNOWN = -1;

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void bodyWithinTheLimit_isReadWhole_andHandedOnIntact() throws Exception {
        byte[] body = bytes(1000);
        RequestBody read = RequestBody.read(new ByteArrayInputStream(body), 1000, UNKNOWN);

        assertThat(read.overLimit()).isFalse();
        assertThat(read.bytes()).isEqualTo(body);
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    @Test
    void bodyOverTheLimit_holdsOnlyLimitPlusOne_andTheResourceStillReadsItAll() throws Exception {
        byte[] body = bytes(100_000);
        RequestBody read = RequestBody.read(new ByteArrayInputStream(body), 1000, UNKNOWN);

        assertThat(read.overLimit()).isTrue();
        assertThat(read.bytes()).isEqualTo(Arrays.copyOf(body, 1001));
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    @Test
    void declaredOverTheLimit_isReadUpToLimitPlusOne_notAllocatedAsDeclared() throws Exception {
        byte[] body = bytes(5000);
        RequestBody read =
                RequestBody.read(new ByteArrayInputStream(body), 1000, Integer.MAX_VALUE);

        assertThat(read.overLimit()).isTrue();
        assertThat(read.bytes()).hasSize(1001);
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    @Test
    void noEntityStream_isAnEmptyBody() throws Exception {
        RequestBody read = RequestBody.read(null, 10, UNKNOWN);

        assertThat(read.bytes()).isEmpty();
        assertThat(read.overLimit()).isFalse();
        assertThat(read.stream().read()).isEqualTo(-1);
    }

    @Test
    void streamThatTricklesBytes_isReadWhole() throws Exception {
        byte[] body = bytes(5000);
        RequestBody read = RequestBody.read(trickle(body), 10_000, UNKNOWN);

        assertThat(read.bytes()).isEqualTo(body);
    }

    /**
     * Whatever Content-Length says (exact, absent, too small, too large, zero), the bytes that
     * arrive decide: the copy is the body, or its first limit + 1 bytes, and the resource reads the
     * whole body.
     */
    @Property(tries = 500)
    void anyDeclaredLength_readsTheBytesThatArrive(
            @ForAll @IntRange(min = 0, max = 5000) int size,
            @ForAll @IntRange(min = 1, max = 3000) int limit,
            @ForAll @IntRange(min = -1, max = 6000) int declared,
            @ForAll boolean trickles)
            throws Exception {
        byte[] body = bytes(size);
        InputStream in = trickles ? trickle(body) : new ByteArrayInputStream(body);

        RequestBody read = RequestBody.read(in, limit, declared);

        assertThat(read.overLimit()).isEqualTo(size > limit);
        assertThat(read.bytes()).isEqualTo(size > limit ? Arrays.copyOf(body, limit + 1) : body);
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    private static InputStream trickle(byte[] body) {
        return new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 7));
            }
        };
    }
}
