package io.idemkit.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.admin.IdempotencyAdmin.RecordInfo;
import io.idemkit.cdi.TestDeployment;
import io.idemkit.config.IdemkitConfig;
import io.idemkit.core.Admission;
import io.idemkit.core.IdempotencyEngine;
import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.core.hash.EffectiveKey;
import io.idemkit.spi.RecordState;
import io.idemkit.spi.StoredResult;
import jakarta.enterprise.inject.spi.DeploymentException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The admin bean on Weld: lookups by raw parts or effective key, delete, purge (C3). */
class IdempotencyAdminTest {

    private static final String PATH = "/shop/api/orders";
    private static final byte[] BODY = "{\"id\":7}".getBytes(StandardCharsets.UTF_8);

    private final TestDeployment deployment = new TestDeployment();

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    private WeldContainer start() {
        return deployment.start(IdempotencyAdmin.class);
    }

    /** Runs and completes the operation of a POST with {@code key}, as the filter pair would. */
    private static String completeHttp(WeldContainer weld, String key) {
        String effectiveKey =
                EffectiveKey.forHttp(key, ScopeResolver.SINGLE_TENANT_SCOPE, "POST", PATH);
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        IdempotencyEngine engine = weld.select(IdempotencyEngine.class).get();
        ((Admission.Proceed)
                        engine.admit(
                                new Operation(effectiveKey, "fp", 1, config.defaults(), "http")))
                .execution()
                .finish(new StoredResult(201, List.of(), BODY));
        return effectiveKey;
    }

    @Test
    void findHttpByRawParts_showsTheRecordWithoutItsBody() {
        WeldContainer weld = start();
        String effectiveKey = completeHttp(weld, "order-7");
        IdempotencyAdmin admin = weld.select(IdempotencyAdmin.class).get();

        RecordInfo info =
                admin.findHttp("order-7", IdempotencyAdmin.SINGLE_TENANT_SCOPE, "post", PATH)
                        .orElseThrow();

        assertThat(info.effectiveKey()).isEqualTo(effectiveKey);
        assertThat(info.state()).isEqualTo(RecordState.COMPLETED);
        assertThat(info.fingerprint()).isEqualTo("fp");
        assertThat(info.fingerprintVersion()).isEqualTo(1);
        assertThat(info.status()).isEqualTo(201);
        assertThat(info.bodyBytes()).isEqualTo(BODY.length);
        assertThat(info.body()).isNull();
        assertThat(info.claimedAt()).isNotNull();
        assertThat(info.completedAt()).isNotNull();
        assertThat(info.expiresAt()).isAfter(info.completedAt());
        assertThat(info.toString()).doesNotContain("order-7").doesNotContain("\"id\"");
    }

    @Test
    void findWithBody_returnsTheStoredBody() {
        WeldContainer weld = start();
        String effectiveKey = completeHttp(weld, "order-8");

        Optional<RecordInfo> info =
                weld.select(IdempotencyAdmin.class).get().findWithBody(effectiveKey);

        assertThat(info.orElseThrow().body()).isEqualTo(BODY);
    }

    @Test
    void claimedRecord_hasNoStatusNorBody() {
        WeldContainer weld = start();
        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        String effectiveKey = "d".repeat(64);
        weld.select(IdempotencyEngine.class)
                .get()
                .admit(new Operation(effectiveKey, "fp", 1, config.defaults(), "method"));

        RecordInfo info =
                weld.select(IdempotencyAdmin.class).get().findWithBody(effectiveKey).orElseThrow();

        assertThat(info.state()).isEqualTo(RecordState.CLAIMED);
        assertThat(info.status()).isNull();
        assertThat(info.bodyBytes()).isZero();
        assertThat(info.body()).isNull();
        assertThat(info.completedAt()).isNull();
    }

    @Test
    void delete_erasesTheRecord_andTheNextOperationRunsAgain() {
        WeldContainer weld = start();
        String effectiveKey = completeHttp(weld, "order-9");
        IdempotencyAdmin admin = weld.select(IdempotencyAdmin.class).get();

        assertThat(admin.delete(effectiveKey)).isTrue();
        assertThat(admin.delete(effectiveKey)).isFalse();
        assertThat(admin.find(effectiveKey)).isEmpty();

        IdemkitConfig config = weld.select(IdemkitConfig.class).get();
        Admission next =
                weld.select(IdempotencyEngine.class)
                        .get()
                        .admit(new Operation(effectiveKey, "fp", 1, config.defaults(), "http"));
        assertThat(next).isInstanceOf(Admission.Proceed.class);
    }

    @Test
    void unknownKey_isEmpty_andAnInvalidKeyIsRefused() {
        IdempotencyAdmin admin = start().select(IdempotencyAdmin.class).get();

        assertThat(admin.find("e".repeat(64))).isEmpty();
        assertThatThrownBy(() -> admin.find("order-7"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 lowercase hex")
                .hasMessageNotContaining("order-7");
        assertThatThrownBy(() -> admin.delete("E".repeat(64)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void methodEffectiveKey_isTheContractsMethodKey() {
        IdempotencyAdmin admin = start().select(IdempotencyAdmin.class).get();

        assertThat(admin.methodEffectiveKey("k", "s", "com.shop.Orders", "place(java.lang.String)"))
                .isEqualTo(
                        EffectiveKey.forMethod(
                                "k", "s", "com.shop.Orders", "place(java.lang.String)"));
    }

    @Test
    void purgeExpired_onTheInMemoryStore_keepsLiveRecords() {
        WeldContainer weld = start();
        String effectiveKey = completeHttp(weld, "order-10");
        IdempotencyAdmin admin = weld.select(IdempotencyAdmin.class).get();

        assertThat(admin.purgeExpired()).isZero();
        assertThat(admin.find(effectiveKey)).isPresent();
        assertThat(admin.storeName()).isEqualTo("memory");
    }

    @Test
    void invalidAdminKeys_failTheDeployment() {
        deployment.set("idemkit.admin.enabled", "yes").set("idemkit.admin.role", "two roles");

        assertThatThrownBy(this::start)
                .isInstanceOf(DeploymentException.class)
                .hasMessageContaining("Invalid idemkit.admin.enabled=yes: must be true or false")
                .hasMessageContaining("Invalid idemkit.admin.role=two roles");
    }
}
