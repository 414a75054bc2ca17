package io.idemkit.spi;

import java.lang.reflect.Type;

/**
 * Turns the return value of an {@code @Idempotent} CDI or EJB method into the bytes stored for
 * replay, and those bytes back into a value of the method's declared generic return type.
 *
 * <p>The library's default stores JSON through JSON-B. To use another serializer (Jackson, for
 * example), declare a bean implementing this interface as an enabled alternative:
 *
 * <pre>{@code
 * @Alternative @Priority(Interceptor.Priority.APPLICATION)
 * @ApplicationScoped
 * public class JacksonResultCodec implements MethodResultCodec { ... }
 * }</pre>
 *
 * <p>Never plug in a codec that can instantiate arbitrary classes named by the stored bytes (Java
 * serialization, or polymorphic typing that honours a class name in the data): whoever can write
 * the store could then run code in your application at replay.
 *
 * <p>Implementations must be thread-safe. Both methods may throw any {@link RuntimeException} to
 * say that a value cannot be stored or rebuilt: the library then refuses to store it (and holds the
 * claim), or refuses to replay it.
 */
public interface MethodResultCodec {

    /**
     * @param value the method's return value, possibly {@code null}
     * @param type the method's declared generic return type (for a {@code CompletionStage<T>}, the
     *     {@code T})
     * @return the bytes to store
     */
    byte[] encode(Object value, Type type);

    /**
     * @param bytes bytes that {@link #encode} returned for the same type
     * @param type the method's declared generic return type
     * @return the rebuilt value, an instance of {@code type} (or {@code null})
     */
    Object decode(byte[] bytes, Type type);
}
