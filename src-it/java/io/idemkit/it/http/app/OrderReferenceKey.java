package io.idemkit.it.http.app;

import io.idemkit.spi.IdempotencyKeyExtractor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.util.Optional;

/**
 * The application's key extractor: the key is the JSON body's {@code reference} field, read with
 * the runtime's JSON-P. A body without one, or no JSON at all, carries no key.
 */
@ApplicationScoped
public class OrderReferenceKey implements IdempotencyKeyExtractor {

    @Override
    public Optional<String> keyOf(Request request) {
        return request.body().flatMap(OrderReferenceKey::reference);
    }

    private static Optional<String> reference(byte[] body) {
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            JsonValue value = reader.readValue();
            return value instanceof JsonObject order
                            && order.get("reference") instanceof JsonString reference
                    ? Optional.of(reference.getString())
                    : Optional.empty();
        } catch (JsonException e) {
            return Optional.empty();
        }
    }
}
