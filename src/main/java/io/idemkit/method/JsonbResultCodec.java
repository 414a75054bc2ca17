package io.idemkit.method;

import io.idemkit.spi.MethodResultCodec;
import jakarta.json.bind.Jsonb;
import jakarta.json.bind.JsonbBuilder;
import jakarta.json.bind.JsonbConfig;
import jakarta.json.bind.config.BinaryDataStrategy;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The default result codec: JSON through the runtime's JSON-B, rebuilt as the declared generic
 * return type. {@code byte[]} is stored as base64. An empty {@code Optional} is stored as {@code
 * null} and comes back empty. It reads only JSON, so stored bytes can never make it instantiate a
 * class the return type does not name. Thread-safe.
 */
final class JsonbResultCodec implements MethodResultCodec, AutoCloseable {

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private final Jsonb jsonb =
            JsonbBuilder.create(
                    new JsonbConfig().withBinaryDataStrategy(BinaryDataStrategy.BASE_64));

    @Override
    public byte[] encode(Object value, Type type) {
        if (value == null) {
            return NULL.clone();
        }
        return jsonb.toJson(value, type).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Object decode(byte[] bytes, Type type) {
        Object value = jsonb.fromJson(new String(bytes, StandardCharsets.UTF_8), type);
        return value == null ? emptyOf(type) : value;
    }

    private static Object emptyOf(Type type) {
        Type raw = type instanceof ParameterizedType p ? p.getRawType() : type;
        if (raw == Optional.class) {
            return Optional.empty();
        }
        if (raw == OptionalInt.class) {
            return OptionalInt.empty();
        }
        if (raw == OptionalLong.class) {
            return OptionalLong.empty();
        }
        if (raw == OptionalDouble.class) {
            return OptionalDouble.empty();
        }
        return null;
    }

    @Override
    public void close() {
        try {
            jsonb.close();
        } catch (Exception e) {
            // Closing JSON-B only frees caches.
        }
    }
}
