package io.idemkit.spi;

import java.security.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Takes a JAX-RS request's idempotency key from somewhere other than a header: a claim of the
 * caller's token, a field of the body (contract C6.1, the reference's A§4.7).
 *
 * <p>Declare a CDI bean implementing this interface and name it where it applies: on a resource
 * method or class with {@code @Idempotent(keyExtractor = OrderKey.class)}, per method with the key
 * {@code com.example.Orders/create/Idempotent/keyExtractor=com.example.OrderKey}, or for every
 * resource method with {@code idemkit.key-extractor=com.example.OrderKey}. The most specific choice
 * wins, and {@code keyHeader} is the other way to make it: a level that sets both fails the
 * deployment, as does a named class that is not a bean implementing this interface. CDI and EJB
 * methods take their key from {@code @IdempotencyKey} parameters and ignore extractors; an {@code
 * Incoming} method names a {@link RecordKeyExtractor}.
 *
 * <p>The key returned follows the header's rules (1 to 255 bytes of UTF-8, no control characters);
 * one that breaks them is answered with 400 {@code urn:idemkit:missing-key}. No key (an empty
 * result) is an unkeyed request: it runs unprotected, or gets 400 when {@code idemkit.require-key}
 * holds. An extractor that throws counts as no key, with one warning per endpoint that names the
 * exception's class only, as the reference does.
 *
 * <p>A key must be the same on every retry of one operation and differ between operations. A
 * token's {@code jti}, or a claim the issuer renews with the token, changes when a client retries
 * with a fresh token: every retry is then a new operation. Take a value the client chose for the
 * operation (an order reference in the body, a claim that names the transaction).
 *
 * <p>Implementations must be thread-safe and quick: one runs for every request of its endpoints,
 * before the key is claimed.
 */
@FunctionalInterface
public interface IdempotencyKeyExtractor {

    /**
     * @param request what the extractor may read of the request
     * @return the key, or empty when the request carries none
     */
    Optional<String> keyOf(Request request);

    /** The parts of a JAX-RS request a key can come from. Valid during the call only. */
    interface Request {

        /**
         * @return the HTTP method, in upper case
         */
        String method();

        /**
         * @param name a header name, matched case-insensitively
         * @return every value of the header, in order; empty when it is absent
         */
        List<String> headers(String name);

        /**
         * @param name a header name, matched case-insensitively
         * @return its first value, if it was sent
         */
        default Optional<String> header(String name) {
            return headers(name).stream().findFirst();
        }

        /**
         * @return the body's bytes, decoded when it was sent with {@code Content-Encoding: gzip},
         *     the same bytes the fingerprint reads; empty when the body exceeds {@code
         *     idemkit.max-request-bytes}, since such a request is not protected anyway. Do not
         *     modify the array.
         */
        Optional<byte[]> body();

        /**
         * @return the authenticated caller (with MicroProfile JWT, the {@code JsonWebToken}, whose
         *     claims can be read), if there is one
         */
        Optional<Principal> principal();
    }
}
