package io.idemkit.core.hash;

import java.util.List;
import java.util.Objects;

/**
 * The effective key of an operation (contract C1): {@link LengthPrefixedSha256} over the UTF-8
 * bytes of the parts that identify it, never joined with a separator. Mirrors {@code
 * compute_effective_key} and {@code compose_key} of the Python reference.
 *
 * <p>Every string must be well-formed UTF-16; a lone surrogate is refused with {@link
 * IllegalArgumentException}, as Python refuses to encode it. Thread-safe and stateless.
 */
public final class EffectiveKey {

    private EffectiveKey() {}

    /**
     * The effective key of an HTTP request: idempotency key, scope, method in upper case and {@link
     * CanonicalPath canonical path}.
     *
     * @param idempotencyKey the client's key, as parsed from the header
     * @param scope the caller's identity ({@code ScopeResolver} yields {@code _idemkit_anonymous}
     *     in single-tenant mode)
     * @param method the HTTP method, in any case
     * @param rawPath the request path as sent, not decoded
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException when the method is not ASCII in upper case, or a string
     *     holds a lone surrogate
     */
    public static String forHttp(
            String idempotencyKey, String scope, String method, String rawPath) {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(rawPath, "rawPath");
        return LengthPrefixedSha256.hex(
                Utf8.encode(idempotencyKey),
                Utf8.encode(scope),
                CanonicalMethod.bytes(method),
                Utf8.encode(CanonicalPath.canonicalize(rawPath)));
    }

    /**
     * The effective key of a method call: key, scope, bean class and method signature.
     *
     * @param key the explicit or derived idempotency key
     * @param scope the caller's identity ({@code ScopeResolver} yields {@code _idemkit_anonymous}
     *     in single-tenant mode)
     * @param beanClass the bean class name
     * @param methodSignature the method's signature
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException when a string holds a lone surrogate
     */
    public static String forMethod(
            String key, String scope, String beanClass, String methodSignature) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(beanClass, "beanClass");
        Objects.requireNonNull(methodSignature, "methodSignature");
        return LengthPrefixedSha256.hex(
                Utf8.encode(key),
                Utf8.encode(scope),
                Utf8.encode(beanClass),
                Utf8.encode(methodSignature));
    }

    /**
     * The effective key over any parts, in order, like the reference's {@code compose_key}.
     *
     * @param parts the parts; none null; any number, none included
     * @return 64 lowercase hex characters
     * @throws IllegalArgumentException when a part holds a lone surrogate
     */
    public static String of(List<String> parts) {
        Objects.requireNonNull(parts, "parts");
        byte[][] bytes = new byte[parts.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = Utf8.encode(Objects.requireNonNull(parts.get(i), "part"));
        }
        return LengthPrefixedSha256.hex(bytes);
    }
}
