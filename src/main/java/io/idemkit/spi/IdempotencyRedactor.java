package io.idemkit.spi;

/**
 * Rewrites a copy of an operation's result before it is stored, so that card numbers or personal
 * data never reach the store (contract C4.10): the caller that ran the operation always receives
 * the unredacted original, and every replay gets the redacted copy.
 *
 * <p>Declare a CDI bean implementing this interface. With one such bean, it applies to every
 * {@code @Idempotent} operation of the application (HTTP resource methods and CDI/EJB methods). One
 * method can name another with {@code @Idempotent(redactor = CardRedactor.class)} or the per-method
 * key {@code com.example.Payments/charge/Idempotent/redactor=com.example.CardRedactor}. A named
 * class that is not a bean, or several redactor beans with none chosen (an enabled
 * {@code @Alternative}), fails the deployment. Message-driven beans store only the library's own
 * "done" marker, never the application's data, and are not redacted.
 *
 * <p>What the redactor sees: on HTTP the response's status, the headers allowed to be stored and
 * the body bytes as they went on the wire (possibly compressed, when a {@code Content-Encoding}
 * applies); on the method surface status {@code 200}, no headers and the JSON bytes of the return
 * value, which a replay rebuilds as the method's return type, so the redacted JSON must still
 * rebuild as that type. {@link StoredResult} is immutable: return a new one.
 *
 * <p>A redactor that throws (or returns {@code null}) stores nothing: the claim is released, so a
 * retry runs the operation again, the event {@code redaction_failed} is emitted, and one warning is
 * logged that names the exception's class only. The caller still receives its original result.
 *
 * <p>Implementations must be thread-safe; they run on the thread that completes the operation,
 * before anything is stored, and should be quick.
 */
@FunctionalInterface
public interface IdempotencyRedactor {

    /**
     * @param result the result about to be stored, unredacted
     * @return the copy to store instead, never {@code null}; {@code result} itself when nothing
     *     needs redacting
     */
    StoredResult redact(StoredResult result);
}
