package io.idemkit.admin.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.admin.AdminBeans;
import io.idemkit.admin.IdempotencyAdmin;
import io.idemkit.core.Admission;
import io.idemkit.core.CacheableStatuses;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.LeaseHeartbeat;
import io.idemkit.core.Operation;
import io.idemkit.core.OperationPolicy;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.StorageErrorMode;
import io.idemkit.core.Ticker;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.store.memory.InMemoryIdempotencyStore;
import io.idemkit.testkit.ManualClock;
import io.idemkit.testsupport.FakeRequest;
import io.idemkit.testsupport.FakeSecurityContext;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * What the admin HTTP API's tests share (C3 delete and purge; docs/operating.md): hand-written
 * JAX-RS contexts over the real admin bean, engine and in-memory store, and a completed operation
 * of a POST as the filter pair leaves it.
 */
abstract class AdminEndpointFixture {

    static final String ROLE = "idemkit-admin";
    static final String PREFIX = "idemkit/admin/";
    static final String PATH = "/shop/api/orders";
    static final byte[] BODY = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);
    static final String UNKNOWN = "ab".repeat(32);
    static final SecurityContext OPERATOR = FakeSecurityContext.of("ops-admin", ROLE);
    static final OperationPolicy POLICY =
            new OperationPolicy(
                    Duration.ofSeconds(30),
                    Duration.ofHours(1),
                    Duration.ZERO,
                    StorageErrorMode.FAIL_CLOSED,
                    CacheableStatuses.parse("2xx"));

    final ManualClock clock = new ManualClock(Instant.parse("2026-12-05T07:00:00Z"));
    final InMemoryIdempotencyStore memory = new InMemoryIdempotencyStore(clock, 100);
    final IdempotencyEngine engine =
            new IdempotencyEngine(memory, event -> {}, new LeaseHeartbeat(false), Ticker.system());

    @AfterEach
    void close() {
        engine.close();
        memory.close();
    }

    static AdminEndpoint endpoint(String role, IdempotencyStore store) {
        IdempotencyAdmin admin = AdminBeans.over(store);
        return new AdminEndpoint(new AdminSettings(true, role), () -> admin);
    }

    AdminEndpoint endpoint() {
        return endpoint(ROLE, memory);
    }

    /** Runs the filter; the answer, or {@code null} when it let the request through. */
    static Served call(AdminEndpoint endpoint, FakeRequest request) {
        try {
            endpoint.filter(request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return request.aborted().map(Served::of).orElse(null);
    }

    static FakeRequest as(SecurityContext caller, String method, String path) {
        return FakeRequest.of(method, path).caller(caller);
    }

    /** Completes the operation of a POST with {@code key}, as the filter pair would. */
    String completed(String key) {
        return completed(key, 1);
    }

    /** As {@link #completed(String)}, on a node that fingerprints with {@code version}. */
    String completed(String key, int version) {
        String effectiveKey =
                EffectiveKey.forHttp(key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", PATH);
        ((Admission.Proceed)
                        engine.admit(new Operation(effectiveKey, "fp", version, POLICY, "http")))
                .execution()
                .finish(new StoredResult(201, List.of(), BODY));
        return effectiveKey;
    }

    static void assertProblem(Served served, int status, String type) {
        assertThat(served.status()).isEqualTo(status);
        assertThat(served.header("Content-Type")).startsWith("application/problem+json");
        assertThat(served.header("Cache-Control")).isEqualTo("no-store");
        assertThat(served.json().getString("type")).isEqualTo(type);
        assertThat(served.json().getInt("status")).isEqualTo(status);
    }
}
