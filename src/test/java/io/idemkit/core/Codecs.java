package io.idemkit.core;

import io.idemkit.spi.StoredResult;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Result codecs for engine tests. */
final class Codecs {

    /** Stores a string as a 200 with its UTF-8 bytes. */
    static final ResultCodec<String> TEXT =
            new ResultCodec<>() {
                @Override
                public StoredResult encode(String value) {
                    return new StoredResult(200, List.of(), value.getBytes(StandardCharsets.UTF_8));
                }

                @Override
                public String decode(StoredResult result) {
                    return new String(result.body(), StandardCharsets.UTF_8);
                }
            };

    private Codecs() {}
}
