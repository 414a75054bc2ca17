package io.idemkit.method;

import io.idemkit.core.hash.CanonicalJson;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.config.BinaryDataStrategy;
import java.nio.charset.StandardCharsets;

/**
 * The canonical JSON of a method argument, for derived keys and fingerprints: JSON-B's form of the
 * value, re-serialized with sorted keys and no whitespace ({@link CanonicalJson}), so that it does
 * not depend on property order. It uses its own JSON-B instance, never the pluggable result codec,
 * so that replacing the codec does not change any key. Thread-safe.
 */
final class ArgumentJson implements AutoCloseable {

    private final Jsonb jsonb =
            JsonbBuilder.create(
                    new JsonbConfig().withBinaryDataStrategy(BinaryDataStrategy.BASE_64));

    /**
     * @param value an argument, possibly {@code null}
     * @return its canonical JSON, in UTF-8
     * @throws IllegalArgumentException if JSON-B cannot serialize it
     */
    byte[] canonical(Object value) {
        if (value == null) {
            return NULL;
        }
        byte[] json;
        try {
            json = jsonb.toJson(value).getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "JSON-B cannot serialize a " + value.getClass().getName(), e);
        }
        return CanonicalJson.canonicalize(json).orElse(json);
    }

    @Override
    public void close() {
        try {
            jsonb.close();
        } catch (Exception e) {
            // Closing JSON-B only frees caches.
        }
    }

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
}
