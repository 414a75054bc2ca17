package io.idemkit.core.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The length-prefixed construction of contract C1, against hashlib's answers. */
class LengthPrefixedSha256Test {

    @Test
    void noParts_isTheHashOfNothing() {
        assertThat(LengthPrefixedSha256.hex())
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assertThat(LengthPrefixedSha256.hex(List.of())).isEqualTo(LengthPrefixedSha256.hex());
    }

    @Test
    void emptyPart_stillHashesItsFourByteZeroLength() {
        assertThat(LengthPrefixedSha256.hex(new byte[0]))
                .isEqualTo("df3f619804a92fdb4057192dc43dd748ea778adc52bc498ce80524c014b81119");
    }

    @Test
    void eachPart_isPrefixedWithItsBigEndianLength() {
        assertThat(LengthPrefixedSha256.hex(new byte[] {'a', 'b'}, new byte[0]))
                .isEqualTo("421fb38456f1afe5c04ed5c0c11c88c415c03ba8cc8eab2528a1fd847fa83cd7");
    }
}
