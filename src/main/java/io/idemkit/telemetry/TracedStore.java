package io.idemkit.telemetry;

import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.ClaimToken;
import io.idemkit.spi.IdempotencyRecord;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoreHealth;
import io.idemkit.spi.StoredResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A store whose every call is one {@code INTERNAL} span, a child of the current span: {@code
 * idempotency.claim}, {@code idempotency.complete}, {@code idempotency.release}, {@code
 * idempotency.renew}, {@code idempotency.await_completion}, {@code idempotency.find} and {@code
 * idempotency.delete} (the reference's child-span names), with {@code idempotency.backend}, {@code
 * idempotency.effective_key} (a SHA-256, never the raw key) and, for a claim, {@code
 * idempotency.claim_status}. A failed call records the exception and sets the span's status to
 * error; it is rethrown unchanged. Thread-safe as the store it wraps.
 */
final class TracedStore implements IdempotencyStore {

    static final AttributeKey<String> CLAIM_STATUS =
            AttributeKey.stringKey("idempotency.claim_status");
    static final AttributeKey<Boolean> OUTCOME = AttributeKey.booleanKey("idempotency.applied");

    private final IdempotencyStore store;
    private final Tracer tracer;
    private final String name;

    TracedStore(IdempotencyStore store, Tracer tracer) {
        this.store = Objects.requireNonNull(store, "store");
        this.tracer = Objects.requireNonNull(tracer, "tracer");
        this.name = store.name();
    }

    @Override
    public ClaimResult claim(
            String key, String fingerprint, int fingerprintVersion, Duration leaseTtl) {
        Span span = start("claim", key);
        try (Scope ignored = span.makeCurrent()) {
            ClaimResult result = store.claim(key, fingerprint, fingerprintVersion, leaseTtl);
            span.setAttribute(CLAIM_STATUS, result.status().name().toLowerCase(Locale.ROOT));
            return result;
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    @Override
    public boolean complete(String key, ClaimToken token, StoredResult result, Duration ttl) {
        Span span = start("complete", key);
        try (Scope ignored = span.makeCurrent()) {
            return applied(span, store.complete(key, token, result, ttl));
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    @Override
    public boolean completeInTransaction(
            String key, ClaimToken token, StoredResult result, Duration ttl) {
        Span span = start("complete_in_transaction", key);
        try (Scope ignored = span.makeCurrent()) {
            return applied(span, store.completeInTransaction(key, token, result, ttl));
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    /** Forwarded without a span: it never fails, and reports nothing. */
    @Override
    public void completionCommitted(String key) {
        store.completionCommitted(key);
    }

    @Override
    public boolean release(String key, ClaimToken token) {
        Span span = start("release", key);
        try (Scope ignored = span.makeCurrent()) {
            return applied(span, store.release(key, token));
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    @Override
    public boolean renew(String key, ClaimToken token, Duration leaseTtl) {
        Span span = start("renew", key);
        try (Scope ignored = span.makeCurrent()) {
            return applied(span, store.renew(key, token, leaseTtl));
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    @Override
    public Optional<IdempotencyRecord> awaitCompletion(String key, Duration timeout)
            throws InterruptedException {
        Span span = start("await_completion", key);
        try (Scope ignored = span.makeCurrent()) {
            Optional<IdempotencyRecord> completed = store.awaitCompletion(key, timeout);
            span.setAttribute(OUTCOME, completed.isPresent());
            return completed;
        } catch (RuntimeException | InterruptedException e) {
            span.recordException(e);
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            throw e;
        } finally {
            span.end();
        }
    }

    @Override
    public Optional<IdempotencyRecord> find(String key) {
        Span span = start("find", key);
        try (Scope ignored = span.makeCurrent()) {
            Optional<IdempotencyRecord> found = store.find(key);
            span.setAttribute(OUTCOME, found.isPresent());
            return found;
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    @Override
    public boolean delete(String key) {
        Span span = start("delete", key);
        try (Scope ignored = span.makeCurrent()) {
            return applied(span, store.delete(key));
        } catch (RuntimeException e) {
            throw failed(span, e);
        } finally {
            span.end();
        }
    }

    /** Not traced: a clock reading, usually without a round trip. */
    /** Forwarded without a span: a readiness probe is not an idempotency operation. */
    @Override
    public StoreHealth health() {
        return store.health();
    }

    /** Forwarded without a span: an administrative sweep, not an idempotency operation. */
    @Override
    public long purgeExpired() {
        return store.purgeExpired();
    }

    /** Forwarded without a span, like the purge. */
    @Override
    public long countAttempt(String attemptsKey, Duration retention) {
        return store.countAttempt(attemptsKey, retention);
    }

    @Override
    public Instant now() {
        return store.now();
    }

    @Override
    public String name() {
        return name;
    }

    /** Does nothing: the wrapped store has its own owner, which closes it. */
    @Override
    public void close() {}

    @Override
    public String toString() {
        return "TracedStore[" + store + "]";
    }

    private Span start(String operation, String key) {
        return tracer.spanBuilder("idempotency." + operation)
                .setSpanKind(SpanKind.INTERNAL)
                .setAttribute(OperationTelemetry.SPAN_BACKEND, name)
                .setAttribute(OperationTelemetry.SPAN_EFFECTIVE_KEY, key)
                .startSpan();
    }

    private static boolean applied(Span span, boolean applied) {
        span.setAttribute(OUTCOME, applied);
        return applied;
    }

    private static RuntimeException failed(Span span, RuntimeException e) {
        span.recordException(e);
        span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
        return e;
    }
}
