package io.idemkit.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The bounded copy of a request body (C6.9): fingerprinted up to the cap, handed on whole. */
class RequestBodyTest {

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
        RequestBody read = RequestBody.read(new ByteArrayInputStream(body), 1000);

        assertThat(read.overLimit()).isFalse();
        assertThat(read.bytes()).isEqualTo(body);
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    @Test
    void bodyOverTheLimit_holdsOnlyLimitPlusOne_andTheResourceStillReadsItAll() throws Exception {
        byte[] body = bytes(100_000);
        RequestBody read = RequestBody.read(new ByteArrayInputStream(body), 1000);

        assertThat(read.overLimit()).isTrue();
        assertThat(read.bytes()).isEqualTo(Arrays.copyOf(body, 1001));
        assertThat(read.stream().readAllBytes()).isEqualTo(body);
    }

    @Test
    void noEntityStream_isAnEmptyBody() throws Exception {
        RequestBody read = RequestBody.read(null, 10);

        assertThat(read.bytes()).isEmpty();
        assertThat(read.overLimit()).isFalse();
        assertThat(read.stream().read()).isEqualTo(-1);
    }

    @Test
    void streamThatTricklesBytes_isReadWhole() throws Exception {
        byte[] body = bytes(5000);
        InputStream trickle =
                new ByteArrayInputStream(body) {
                    @Override
                    public synchronized int read(byte[] b, int off, int len) {
                        return super.read(b, off, Math.min(len, 7));
                    }
                };
        RequestBody read = RequestBody.read(trickle, 10_000);

        assertThat(read.bytes()).isEqualTo(body);
    }
}
