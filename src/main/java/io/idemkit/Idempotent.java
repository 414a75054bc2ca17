package io.idemkit;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an operation take effect once per idempotency key: the first call runs, and every duplicate
 * (sequential or concurrent, on this JVM or another one sharing the store) gets the first call's
 * stored result back.
 *
 * <p>One annotation serves every surface (contract C7.4, C11):
 *
 * <ul>
 *   <li><b>JAX-RS resource methods</b> (a method carrying a JAX-RS request method designator such
 *       as {@code @POST}) are handled by the library's request/response filter pair, which reads
 *       the key from the {@code Idempotency-Key} header, from the one {@link #keyHeader()} names,
 *       or through the bean {@link #keyExtractor()} names. The filter recognises the annotation
 *       through {@code ResourceInfo}, on the method or on the resource class.
 *   <li><b>CDI bean and EJB methods</b> are handled by the library's CDI interceptor: this
 *       annotation is an {@link InterceptorBinding}, and all its members are {@link Nonbinding}, so
 *       one interceptor serves every combination of values. The interceptor leaves JAX-RS resource
 *       methods alone, so a resource method is never claimed twice.
 *   <li><b>Message-driven beans</b> ({@code onMessage(jakarta.jms.Message)} of a {@code
 *       MessageListener}) are handled by the same interceptor, keyed by their message (a message
 *       property, else its {@code JMSMessageID}) instead of their argument.
 *   <li><b>Reactive Messaging {@code @Incoming} methods</b> that take a {@code Message} (Kafka
 *       consumers and processors) are handled by the same interceptor, keyed by their record (a
 *       {@code RecordKeyExtractor}'s key, a header, the record key where asked, else the record's
 *       topic, partition, offset and timestamp; contract C17).
 * </ul>
 *
 * <p>Every member defaults to "use the configured value", the {@code idemkit.*} MicroProfile Config
 * key listed with it: the empty string, {@code void.class} for {@link #redactor()} and {@link
 * #keyExtractor()}, no names for {@link #fingerprintHeaders()} and {@link #fingerprintFields()}. A
 * value that cannot be parsed fails the deployment with a message naming the method, the member and
 * the rule.
 *
 * <p>Durations accept ISO-8601 ({@code PT30S}) or a number with a unit: {@code ms}, {@code s},
 * {@code m}, {@code h} or {@code d} ({@code 500ms}, {@code 30s}, {@code 24h}).
 */
@Inherited
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Idempotent {

    /**
     * The operation's stable name, for CDI and EJB methods. It replaces the bean class and method
     * signature in the effective key, so that renaming or moving the method, or changing its
     * parameter or return types, keeps the records it stored; change it to start afresh (a version
     * suffix such as {@code "book-flight/v2"} does that). Two methods given the same name share
     * records, so names must be unique in the store. Ignored on JAX-RS resource methods, whose key
     * parts are the request's method and path.
     *
     * @return the operation's name, or empty for the bean class and method signature
     */
    @Nonbinding
    String name() default "";

    /**
     * How long a claim holds the key before another caller may take it over, counted on the store's
     * clock. A crashed executor blocks its key for at most this long. Must be positive.
     *
     * @return a duration, or empty for {@code idemkit.lease-ttl} (default {@code 30s})
     */
    @Nonbinding
    String leaseTtl() default "";

    /**
     * How long a completed result is kept for replay, counted from completion and never extended by
     * a read. Must be positive.
     *
     * @return a duration, or empty for {@code idemkit.completed-ttl} (default {@code 24h})
     */
    @Nonbinding
    String completedTtl() default "";

    /**
     * How long a duplicate waits for an in-flight first call to complete before it is told that the
     * operation is still in progress. Zero means "do not wait". Must not be negative.
     *
     * @return a duration, or empty for {@code idemkit.wait-timeout} (default {@code 10s})
     */
    @Nonbinding
    String waitTimeout() default "";

    /**
     * Which outcomes are stored for replay, as a comma-separated list of HTTP status classes
     * ({@code 2xx}), single codes ({@code 409}) or inclusive ranges ({@code 400-409}). An outcome
     * outside the list is not stored: the claim is released, so a retry runs the operation again. A
     * method call that returns normally counts as {@code 200}; one that throws is never stored.
     *
     * @return a status list, or empty for {@code idemkit.cacheable-status} (default {@code 2xx})
     */
    @Nonbinding
    String cacheableStatus() default "";

    /**
     * The CDI bean that rewrites the copy of this operation's result before it is stored, so that
     * card numbers or personal data never reach the store (contract C4.10): a class implementing
     * {@code io.idemkit.spi.IdempotencyRedactor} that is a bean of the application. The caller
     * always receives the unredacted result; a replay gets the redacted copy. A class that is not
     * such a bean fails the deployment. Ignored on message-driven beans, which store no data of
     * theirs.
     *
     * @return the redactor's class, or {@code void.class} (the default) for the application's one
     *     {@code IdempotencyRedactor} bean, if it has one
     */
    @Nonbinding
    Class<?> redactor() default void.class;

    /**
     * Where a CDI or EJB method that runs in a JTA transaction completes its record (contract C13):
     * {@code after-commit}, in a write of its own once the business transaction has committed, or
     * {@code in-transaction}, inside that transaction, fenced by the claim's token, so that the
     * record and the business writes commit or roll back together and a crash between them cannot
     * run the method twice. {@code in-transaction} needs the JDBC store on the business database
     * and a method that runs in a transaction ({@code @Transactional}, or an EJB's
     * container-managed one); the deployment fails where it cannot hold. Ignored on JAX-RS resource
     * methods and message-driven beans.
     *
     * @return {@code after-commit}, {@code in-transaction}, or empty for {@code idemkit.completion}
     *     (default {@code after-commit})
     */
    @Nonbinding
    String completion() default "";

    /**
     * The request header that carries the idempotency key of a JAX-RS resource method, where it is
     * not {@code Idempotency-Key} (for example a gateway's {@code X-Request-Key}). Its value
     * follows the same rules (1 to 255 UTF-8 bytes, no control characters). A key must be the same
     * on every retry of one operation and differ between operations: a header a proxy rewrites per
     * attempt makes every retry a new operation. On a Reactive Messaging {@code @Incoming} method,
     * the Kafka header that carries a record's key (contract C17.1), any header name, in place of
     * the message key property's. Ignored on other CDI and EJB methods.
     *
     * @return a header name, or empty for {@code idemkit.key-header} (default {@code
     *     Idempotency-Key}; on an {@code @Incoming} method, {@code idemkit.message.key-property})
     */
    @Nonbinding
    String keyHeader() default "";

    /**
     * The CDI bean that takes a JAX-RS request's idempotency key from the request itself, a claim
     * of the caller's token or a field of the body, instead of a header: a class implementing
     * {@code io.idemkit.spi.IdempotencyKeyExtractor} that is a bean of the application. Another way
     * to say where the key comes from than {@link #keyHeader()}: setting both on one annotation
     * fails the deployment, as does a class that is not such a bean. On a Reactive Messaging
     * {@code @Incoming} method, a {@code io.idemkit.spi.RecordKeyExtractor} bean instead, asked
     * first for each record's key (contract C17.1). Ignored on other CDI and EJB methods.
     *
     * @return the extractor's class, or {@code void.class} (the default) for {@code
     *     idemkit.key-extractor}, else the key header
     */
    @Nonbinding
    Class<?> keyExtractor() default void.class;

    /**
     * Request headers that change what a JAX-RS request means (a {@code Currency}, an {@code
     * Accept-Version}), so they enter its fingerprint: the same key sent with another value is a
     * payload mismatch, not a replay. Ignored on CDI and EJB methods.
     *
     * @return header names, or none for {@code idemkit.fingerprint.headers} (default none)
     */
    @Nonbinding
    String[] fingerprintHeaders() default {};

    /**
     * The fields of a JAX-RS request's JSON body that make up the request, so that only they enter
     * its fingerprint (contract C6.11): a client that regenerates a nonce or a timestamp inside the
     * body then gets a replay on its retry, and a changed named field is still a payload mismatch.
     * Each is a path of member names joined by dots ({@code "amount"}, {@code "order.id"}),
     * followed through objects; the value found there counts whole (an array, an object), and a
     * missing one counts as {@code null}. A body that is not a JSON object is fingerprinted whole.
     * An empty name, or a malformed path, fails the deployment. Ignored on CDI and EJB methods.
     *
     * @return field paths, or none for {@code idemkit.fingerprint.fields} (default none: the whole
     *     body)
     */
    @Nonbinding
    String[] fingerprintFields() default {};
}
