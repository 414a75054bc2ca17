package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyInProgressException;
import io.idemkit.IdempotencyKey;
import io.idemkit.IdempotencyResultNotStorableException;
import io.idemkit.IdempotencyStorageException;
import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.core.hash.LengthPrefixedSha256;
import io.idemkit.spi.ClaimResult;
import io.idemkit.spi.IdempotencyStore;
import io.idemkit.spi.StoredResult;
import io.idemkit.testsupport.CapturedLog;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ai_tool_scenarios} entry of {@code idemkit-conformance.yaml}, through the
 * interceptor: a "tool" is an {@code @Idempotent} bean method, its {@code key_fields} are the
 * {@code @IdempotencyKey} parameters.
 */
class MethodToolScenariosTest {

    static final AtomicInteger executions = new AtomicInteger();
    static volatile boolean gadgetRan;

    private final TestDeployment deployment = new TestDeployment();
    private final ExecutorService pool = Executors.newFixedThreadPool(10);
    private Tools tools;
    private IdempotencyStore store;

    @BeforeEach
    void start() {
        executions.set(0);
        gadgetRan = false;
        deployment.set("idemkit.scope-mode", "single-tenant");
        WeldContainer weld = deployment.start(Tools.class);
        tools = weld.select(Tools.class).get();
        store = weld.select(IdempotencyStore.class).get();
    }

    @AfterEach
    void shutDown() {
        pool.shutdownNow();
        deployment.close();
    }

    @Test
    void toolRetryDedup_fiveCallsRunOnceAndAllResultsAreIdentical() {
        List<String> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(tools.book("SFO", "JFK", "r" + i));
        }

        assertThat(executions).hasValue(1);
        assertThat(results).containsOnly("SFO-JFK-1");
    }

    @Test
    void toolArgNormalization_aNonKeyFieldDedupesAKeyFieldDoesNot() {
        assertThat(tools.book("SFO", "JFK", "r1")).isEqualTo("SFO-JFK-1");
        assertThat(tools.book("SFO", "JFK", "r2")).isEqualTo("SFO-JFK-1");
        assertThat(tools.book("SFO", "LAX", "r3")).isEqualTo("SFO-LAX-2");
        assertThat(executions).hasValue(2);
    }

    @Test
    void toolConcurrentCalls_tenIdenticalCallsExecuteOnce() throws Exception {
        CyclicBarrier start = new CyclicBarrier(10);
        List<Future<String>> calls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            calls.add(
                    pool.submit(
                            () -> {
                                start.await(10, TimeUnit.SECONDS);
                                return tools.act("v");
                            }));
        }
        for (Future<String> call : calls) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("v-1");
        }
        assertThat(executions).hasValue(1);
    }

    @Test
    void toolCrashRecovery_aRaisingCallReleasesAndTheRetryRunsOnce() {
        assertThatThrownBy(() -> tools.crashOnce("v")).hasMessage("tool crashed");

        assertThat(tools.crashOnce("v")).isEqualTo("v-2");
        assertThat(tools.crashOnce("v")).isEqualTo("v-2");
        assertThat(executions).hasValue(2);
    }

    @Test
    void toolUnserializableResultFailsClosed_errorNothingCachedAndNoImmediateRerun() {
        assertThatThrownBy(() -> tools.unserializable("v"))
                .isInstanceOf(IdempotencyResultNotStorableException.class);
        assertThat(store.find(key("unserializable", "v")).orElseThrow().result()).isNull();

        assertThatThrownBy(() -> tools.unserializable("v"))
                .isInstanceOf(IdempotencyInProgressException.class);
        assertThat(executions).hasValue(1);
    }

    /**
     * {@code tool-pickle-opt-in-warns}: Java ships no pickle codec to opt into. Its counterpart,
     * Java serialization, runs code from the stored bytes at decode, the very reason the reference
     * warns; the library offers no such codec, and its JSON-B codec refuses such bytes: a record
     * whose result is a serialization stream (as an attacker with write access to the store could
     * plant) is refused, and no object from the stream is ever created.
     */
    @Test
    void toolPickleOptInWarns_noUnsafeCodecExistsAndSerializedBytesAreRefusedUnread()
            throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new Gadget());
        }
        gadgetRan = false;
        String key = key("act", "planted");
        ClaimResult claim = store.claim(key, emptyFingerprint(), 1, Duration.ofSeconds(30));
        store.complete(
                key,
                claim.token(),
                new StoredResult(200, List.of(), bytes.toByteArray()),
                Duration.ofHours(1));

        assertThatThrownBy(() -> tools.act("planted"))
                .isInstanceOf(IdempotencyStorageException.class)
                .hasMessageContaining("cannot be rebuilt");
        assertThat(gadgetRan).isFalse();
        assertThat(executions).hasValue(0);
    }

    /**
     * A stored result that cannot be rebuilt is application data: the codec's message may quote it,
     * so the WARNING names the failure's class only, and the codec's exception is at DEBUG.
     */
    @Test
    void storedResultThatCannotBeRebuilt_warnsWithoutTheCodecsMessage() {
        String key = key("act", "unreadable");
        ClaimResult claim = store.claim(key, emptyFingerprint(), 1, Duration.ofSeconds(30));
        store.complete(
                key,
                claim.token(),
                new StoredResult(
                        200,
                        List.of(),
                        "{\"card\":\"4111111111111111\"".getBytes(StandardCharsets.UTF_8)),
                Duration.ofHours(1));

        try (CapturedLog log = CapturedLog.withFine(IdempotentInterceptor.class)) {
            assertThatThrownBy(() -> tools.act("unreadable"))
                    .isInstanceOf(IdempotencyStorageException.class);

            assertThat(log.warnings())
                    .singleElement()
                    .satisfies(
                            w ->
                                    assertThat(w)
                                            .contains("cannot rebuild a stored result")
                                            .doesNotContain("/ thrown:")
                                            .doesNotContain("4111111111111111"));
            assertThat(log.texts(java.util.logging.Level.FINE)).isNotEmpty();
        }
    }

    private static String emptyFingerprint() {
        return LengthPrefixedSha256.hex(new byte[0][]);
    }

    private static String key(String method, String x) {
        try {
            return EffectiveKey.forMethod(
                    x,
                    ScopeResolver.SINGLE_TENANT_SCOPE,
                    Tools.class.getName(),
                    MethodPlan.signature(Tools.class.getMethod(method, String.class)));
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** A serializable class whose deserialization has a side effect. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;

        private void readObject(ObjectInputStream in) {
            gadgetRan = true;
        }
    }

    /** The tools. */
    @ApplicationScoped
    public static class Tools {
        @Idempotent
        public String book(
                @IdempotencyKey String origin,
                @IdempotencyKey String destination,
                @IdempotencyIgnored String requestId) {
            return origin + "-" + destination + "-" + executions.incrementAndGet();
        }

        @Idempotent
        public String act(@IdempotencyKey String x) {
            return x + "-" + executions.incrementAndGet();
        }

        @Idempotent
        public String crashOnce(@IdempotencyKey String x) {
            if (executions.incrementAndGet() == 1) {
                throw new IllegalStateException("tool crashed");
            }
            return x + "-" + executions.get();
        }

        @Idempotent(waitTimeout = "0s")
        public Beans.Unserializable unserializable(@IdempotencyKey String x) {
            executions.incrementAndGet();
            return new Beans.Unserializable();
        }
    }
}
