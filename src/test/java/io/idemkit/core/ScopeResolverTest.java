package io.idemkit.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyScopeUnavailableException;
import io.idemkit.testkit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scope resolution and the single-tenant warning (C5). */
class ScopeResolverTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(ScopeResolver.class.getName());
    private final Handler capture =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel() == Level.WARNING) {
                        warnings.add(record);
                    }
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    @BeforeEach
    void capture() {
        logger.addHandler(capture);
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    @Test
    void singleTenantWarnMode_warnsAtStartupThenAgainOnlyAfterThePeriod() {
        ScopeResolver resolver = ScopeResolver.singleTenant(ScopeMode.WARN, clock);

        resolver.warnIfSingleTenant();
        resolver.resolve();
        clock.advance(ScopeResolver.WARNING_PERIOD.minusSeconds(1));
        resolver.resolve();
        assertThat(warnings).hasSize(1);

        clock.advance(Duration.ofSeconds(1));
        resolver.resolve();
        resolver.resolve();
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(1).getMessage()).contains("SINGLE-TENANT");
    }

    @Test
    void acknowledgedSingleTenant_neverWarns() {
        ScopeResolver resolver = ScopeResolver.singleTenant(ScopeMode.SINGLE_TENANT, clock);

        resolver.warnIfSingleTenant();
        clock.advance(Duration.ofDays(2));
        assertThat(resolver.resolve()).isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);

        assertThat(warnings).isEmpty();
    }

    @Test
    void strictMode_cannotRunSingleTenant() {
        assertThatThrownBy(() -> ScopeResolver.singleTenant(ScopeMode.STRICT, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void configuredSource_yieldsItsValueAndNeverWarns() {
        ScopeResolver resolver =
                ScopeResolver.of(() -> Optional.of("tenant-B"), "test", ScopeMode.WARN, clock);

        resolver.warnIfSingleTenant();

        assertThat(resolver.resolve()).isEqualTo("tenant-B");
        assertThat(warnings).isEmpty();
    }

    @Test
    void configuredSourceYieldingBlankOrFailing_failsClosed() {
        ScopeResolver blank =
                ScopeResolver.of(() -> Optional.of("  "), "test", ScopeMode.WARN, clock);
        ScopeResolver failing =
                ScopeResolver.of(
                        () -> {
                            throw new IllegalStateException("no tenant header");
                        },
                        "test",
                        ScopeMode.WARN,
                        clock);

        assertThatThrownBy(blank::resolve).isInstanceOf(IdempotencyScopeUnavailableException.class);
        assertThatThrownBy(failing::resolve)
                .isInstanceOf(IdempotencyScopeUnavailableException.class)
                .hasMessageNotContaining("no tenant header");
    }

    @Test
    void withoutASource_anAuthenticatedCallerIsItsOwnScope_andAnAnonymousOneShares() {
        ScopeResolver resolver = ScopeResolver.singleTenant(ScopeMode.SINGLE_TENANT, clock);

        assertThat(resolver.resolveFor(() -> Optional.of("alice"))).isEqualTo("alice");
        assertThat(resolver.resolveFor(Optional::empty))
                .isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);
        assertThat(resolver.resolveFor(() -> null)).isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);
        assertThat(resolver.resolve()).isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);
    }

    @Test
    void withoutASource_aCallerNamedAsTheAnonymousScope_isRefused_notMergedWithAnonymousCallers() {
        ScopeResolver resolver = ScopeResolver.singleTenant(ScopeMode.SINGLE_TENANT, clock);

        assertThatThrownBy(
                        () ->
                                resolver.resolveFor(
                                        () -> Optional.of(ScopeResolver.SINGLE_TENANT_SCOPE)))
                .isInstanceOf(IdempotencyScopeUnavailableException.class)
                .hasMessageContaining("anonymous callers");
    }

    @Test
    void withoutASource_theCallerGivenAtConstructionScopesResolveCaller_butNotResolve() {
        ScopeResolver resolver =
                ScopeResolver.singleTenant(
                        () -> Optional.of("bob"), ScopeMode.SINGLE_TENANT, clock);

        assertThat(resolver.resolveCaller()).isEqualTo("bob");
        assertThat(resolver.resolve()).isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);
    }

    @Test
    void withoutASource_aCallerThatCannotBeRead_isAnonymous() {
        ScopeResolver resolver =
                ScopeResolver.singleTenant(
                        () -> {
                            throw new IllegalStateException("no security service");
                        },
                        ScopeMode.SINGLE_TENANT,
                        clock);

        assertThat(resolver.resolveCaller()).isEqualTo(ScopeResolver.SINGLE_TENANT_SCOPE);
    }

    @Test
    void withASource_theSourceWinsOverTheCaller() {
        ScopeResolver resolver =
                ScopeResolver.of(() -> Optional.of("tenant-1"), "test", ScopeMode.WARN, clock);

        assertThat(resolver.resolveFor(() -> Optional.of("alice"))).isEqualTo("tenant-1");
        assertThat(resolver.resolveCaller()).isEqualTo("tenant-1");
    }
}
