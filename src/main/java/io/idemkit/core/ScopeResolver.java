package io.idemkit.core;

import io.idemkit.IdempotencyScopeUnavailableException;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Yields the scope of the current operation (contract C5): the configured source's value; when
 * there is no source, the authenticated caller's name for a call that has one ({@link
 * #resolveFor(Supplier)}), so that two users never share a result by default, and otherwise the
 * single-tenant scope shared by every anonymous caller. A configured source that yields nothing
 * fails the operation closed. Thread-safe.
 */
public final class ScopeResolver {

    /**
     * The scope of single-tenant operation. It is the Python reference's value, so that both
     * compute the same effective keys for one shared store.
     */
    public static final String SINGLE_TENANT_SCOPE = "_idemkit_anonymous";

    /** How often the single-tenant warning repeats while operations run. */
    public static final Duration WARNING_PERIOD = Duration.ofHours(1);

    private static final System.Logger LOG = System.getLogger(ScopeResolver.class.getName());

    private final Supplier<Optional<String>> source;
    private final Supplier<Optional<String>> caller;
    private final String sourceName;
    private final ScopeMode mode;
    private final Clock clock;
    private final AtomicReference<Instant> lastWarning = new AtomicReference<>();
    private final AtomicBoolean callerWarned = new AtomicBoolean();

    private ScopeResolver(
            Supplier<Optional<String>> source,
            Supplier<Optional<String>> caller,
            String sourceName,
            ScopeMode mode,
            Clock clock) {
        this.source = source;
        this.caller = caller;
        this.sourceName = sourceName;
        this.mode = Objects.requireNonNull(mode, "mode");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * @param source yields the current caller's scope
     * @param sourceName names the source in error messages
     * @param mode the configured scope mode
     * @param clock paces the repeated warning
     * @return a resolver over a configured source
     */
    public static ScopeResolver of(
            Supplier<Optional<String>> source, String sourceName, ScopeMode mode, Clock clock) {
        return new ScopeResolver(
                Objects.requireNonNull(source, "source"),
                Optional::empty,
                Objects.requireNonNull(sourceName, "sourceName"),
                mode,
                clock);
    }

    /**
     * @param mode the configured scope mode; {@link ScopeMode#STRICT} is refused, since it forbids
     *     running without a source
     * @param clock paces the repeated warning
     * @return a single-tenant resolver
     */
    public static ScopeResolver singleTenant(ScopeMode mode, Clock clock) {
        return singleTenant(Optional::empty, mode, clock);
    }

    /**
     * @param caller yields the authenticated caller's name, empty for an anonymous caller, for the
     *     calls that have no caller of their own ({@link #resolveCaller()}); it may throw, which
     *     counts as anonymous
     * @param mode the configured scope mode; {@link ScopeMode#STRICT} is refused, since it forbids
     *     running without a source
     * @param clock paces the repeated warning
     * @return a resolver without a scope source: authenticated callers apart, anonymous ones in one
     *     shared key space
     */
    public static ScopeResolver singleTenant(
            Supplier<Optional<String>> caller, ScopeMode mode, Clock clock) {
        if (mode == ScopeMode.STRICT) {
            throw new IllegalArgumentException("scope-mode=strict requires a scope source");
        }
        return new ScopeResolver(
                null, Objects.requireNonNull(caller, "caller"), "none", mode, clock);
    }

    /**
     * @return whether there is no scope source, so that callers are kept apart only by their
     *     authentication, and every anonymous caller shares one key space
     */
    public boolean isSingleTenant() {
        return source == null;
    }

    /**
     * The scope of a call of the method surface: {@link #resolveFor(Supplier)} with the caller that
     * this resolver was made with (the CDI {@code Principal}).
     *
     * @return the current call's scope
     * @throws IdempotencyScopeUnavailableException if the configured source yields nothing
     */
    public String resolveCaller() {
        return resolveFor(caller);
    }

    /**
     * The scope of a call by a caller (C5): the configured source's value; without a source, the
     * caller's name when it is authenticated, so that one user never receives another's result by
     * reusing its key or its arguments; otherwise the single-tenant scope. The scope is the
     * caller's name as it is, as the Python reference computes it, so a user named {@value
     * #SINGLE_TENANT_SCOPE} would share the anonymous callers' key space: such a call is refused.
     *
     * @param caller yields the authenticated caller's name, empty for an anonymous caller; if it
     *     throws, the caller counts as anonymous (there is no source to fail closed for)
     * @return the current call's scope
     * @throws IdempotencyScopeUnavailableException if the configured source yields nothing
     */
    public String resolveFor(Supplier<Optional<String>> caller) {
        if (source != null) {
            return resolve();
        }
        Optional<String> name;
        try {
            name = caller.get();
        } catch (RuntimeException e) {
            callerUnknown(e);
            name = Optional.empty();
        }
        if (name == null || name.isEmpty()) {
            return resolve();
        }
        if (name.get().equals(SINGLE_TENANT_SCOPE)) {
            throw new IdempotencyScopeUnavailableException(
                    "The caller's name is the scope idemkit gives anonymous callers ("
                            + SINGLE_TENANT_SCOPE
                            + "); the call was refused rather than run in their key space. Rename"
                            + " the user, or configure a scope source.");
        }
        return name.get();
    }

    /**
     * The scope of an operation without a caller, such as a message delivery: the configured
     * source's value, or the single-tenant scope.
     *
     * @return the current operation's scope
     * @throws IdempotencyScopeUnavailableException if the configured source yields nothing
     */
    public String resolve() {
        if (source == null) {
            warnSingleTenantPeriodically();
            return SINGLE_TENANT_SCOPE;
        }
        Optional<String> scope;
        try {
            scope = source.get();
        } catch (RuntimeException e) {
            throw new IdempotencyScopeUnavailableException(
                    "The idempotency scope source ("
                            + sourceName
                            + ") failed with "
                            + e.getClass().getName()
                            + "; the call was refused to keep tenants apart.");
        }
        if (scope == null || scope.isEmpty() || scope.get().isBlank()) {
            throw new IdempotencyScopeUnavailableException(
                    "The idempotency scope source ("
                            + sourceName
                            + ") yielded no scope for this call; it was refused rather than run"
                            + " in a key space shared by all callers. Make the source always"
                            + " return a stable, non-empty value.");
        }
        return scope.get();
    }

    private void callerUnknown(RuntimeException e) {
        if (callerWarned.compareAndSet(false, true)) {
            LOG.log(
                    Level.INFO,
                    "idemkit could not read the caller's principal ("
                            + e.getClass().getName()
                            + "): such calls are scoped as anonymous, in the key space that every"
                            + " anonymous caller shares. Logged once.");
        }
    }

    /** Logs the single-tenant warning now, if it applies; called once at startup. */
    public void warnIfSingleTenant() {
        if (source == null && mode == ScopeMode.WARN) {
            lastWarning.set(clock.instant());
            warn();
        }
    }

    private void warnSingleTenantPeriodically() {
        if (mode != ScopeMode.WARN) {
            return;
        }
        Instant now = clock.instant();
        Instant last = lastWarning.get();
        if ((last == null || !now.isBefore(last.plus(WARNING_PERIOD)))
                && lastWarning.compareAndSet(last, now)) {
            warn();
        }
    }

    private static void warn() {
        LOG.log(
                Level.WARNING,
                "idemkit runs SINGLE-TENANT: no IdempotencyScopeProvider bean and no"
                        + " idemkit.scope-source, so authenticated callers are kept apart only by"
                        + " their names, and every anonymous caller and message delivery shares"
                        + " one idempotency key space, where one caller can replay another's"
                        + " result by reusing its key."
                        + " Provide an IdempotencyScopeProvider bean or set"
                        + " idemkit.scope-source=principal; set idemkit.scope-mode=single-tenant"
                        + " if one key space is what you want.");
    }
}
