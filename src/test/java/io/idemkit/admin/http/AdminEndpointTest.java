package io.idemkit.admin.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.core.Operation;
import io.idemkit.core.ScopeResolver;
import io.idemkit.testsupport.CapturedLog;
import io.idemkit.testsupport.FakeSecurityContext;
import io.idemkit.testsupport.JaxRsPipeline.Served;
import io.idemkit.testsupport.OutageStore;
import io.idemkit.testsupport.SpiDefaultsStore;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.core.SecurityContext;
import java.time.Duration;
import java.util.Base64;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * The admin HTTP API (C3 delete and purge; docs/operating.md), through hand-written JAX-RS
 * contexts, on the real admin bean, engine and in-memory store: who may call it, and what each
 * resource answers, errors included. Lookups by a request's raw parts are {@link
 * AdminLookupTest}'s.
 */
class AdminEndpointTest extends AdminEndpointFixture {

    @Test
    void anonymousCaller_401_howeverTheRuntimeSaysAnonymous() {
        AdminEndpoint endpoint = endpoint();
        String record = PREFIX + "records/" + UNKNOWN;

        for (SecurityContext anonymous :
                new SecurityContext[] {
                    null,
                    FakeSecurityContext.anonymous(),
                    FakeSecurityContext.of(null, ROLE),
                    FakeSecurityContext.of("", ROLE),
                    FakeSecurityContext.of("  ", ROLE),
                    FakeSecurityContext.of("UNAUTHENTICATED", ROLE)
                }) {
            Served served = call(endpoint, as(anonymous, "GET", record));

            assertProblem(served, 401, "urn:idemkit:admin-unauthorized");
        }
    }

    @Test
    void anonymousCaller_learnsNotEvenWhichPathsExist() {
        Served served =
                call(endpoint(), as(FakeSecurityContext.anonymous(), "GET", PREFIX + "anything"));

        assertProblem(served, 401, "urn:idemkit:admin-unauthorized");
    }

    @Test
    void callerWithoutTheRole_403() {
        Served served =
                call(
                        endpoint(),
                        as(
                                FakeSecurityContext.of("tenant-A"),
                                "GET",
                                PREFIX + "records/" + UNKNOWN));

        assertProblem(served, 403, "urn:idemkit:admin-forbidden");
    }

    @Test
    void noRoleConfigured_403ForEveryone_sayingWhichKeyToSet() {
        AdminEndpoint endpoint = endpoint(null, memory);

        Served operator = call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN));
        Served anonymous =
                call(
                        endpoint,
                        as(FakeSecurityContext.anonymous(), "POST", PREFIX + "purge-expired"));

        assertProblem(operator, 403, "urn:idemkit:admin-forbidden");
        assertThat(operator.json().getString("detail")).contains("idemkit.admin.role");
        assertProblem(anonymous, 403, "urn:idemkit:admin-forbidden");
    }

    @Test
    void pathsOutsideThePrefix_passThroughUntouched() {
        AdminEndpoint endpoint = endpoint();

        assertThat(call(endpoint, as(null, "GET", "orders/7"))).isNull();
        assertThat(call(endpoint, as(null, "GET", "idemkit/administrators"))).isNull();
        assertThat(call(endpoint, as(null, "GET", "idemkit"))).isNull();
    }

    @Test
    void unknownRecord_404() {
        Served served = call(endpoint(), as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN));

        assertProblem(served, 404, "urn:idemkit:record-not-found");
    }

    @Test
    void record_200_showsItWithoutItsBody() {
        String effectiveKey = completed("order-7");

        Served served = call(endpoint(), as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.header("Content-Type")).isEqualTo("application/json");
        assertThat(served.header("Cache-Control")).isEqualTo("no-store");
        JsonObject record = served.json();
        assertThat(record.getString("effectiveKey")).isEqualTo(effectiveKey);
        assertThat(record.getString("state")).isEqualTo("COMPLETED");
        assertThat(record.getString("fingerprint")).isEqualTo("fp");
        assertThat(record.getInt("fingerprintVersion")).isEqualTo(1);
        assertThat(record.getString("claimedAt")).isEqualTo("2026-12-05T07:00:00Z");
        assertThat(record.getString("completedAt")).isEqualTo("2026-12-05T07:00:00Z");
        assertThat(record.getString("expiresAt")).isEqualTo("2026-12-05T08:00:00Z");
        assertThat(record.getInt("status")).isEqualTo(201);
        assertThat(record.getInt("bodyBytes")).isEqualTo(BODY.length);
        assertThat(record.containsKey("body")).isFalse();
    }

    @Test
    void recordOfAnotherFingerprintVersion_200_isShownWithItsVersion() {
        // A newer node's record is a record (C3): an operator must see what holds the key.
        String effectiveKey = completed("order-7", 2);

        Served served = call(endpoint(), as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.json().getString("state")).isEqualTo("COMPLETED");
        assertThat(served.json().getInt("fingerprintVersion")).isEqualTo(2);
    }

    @Test
    void recordWithBodyTrue_addsTheBody_inBase64() {
        String effectiveKey = completed("order-7");

        Served served =
                call(
                        endpoint(),
                        as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey + "?body=true"));

        assertThat(Base64.getDecoder().decode(served.json().getString("body"))).isEqualTo(BODY);
    }

    @Test
    void claimedRecord_hasNoStatusNorCompletion() {
        String effectiveKey = "cd".repeat(32);
        engine.admit(new Operation(effectiveKey, "fp", 1, POLICY, "method"));

        JsonObject record =
                call(endpoint(), as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey)).json();

        assertThat(record.getString("state")).isEqualTo("CLAIMED");
        assertThat(record.getString("leaseUntil")).isEqualTo("2026-12-05T07:00:30Z");
        assertThat(record.containsKey("status")).isFalse();
        assertThat(record.containsKey("completedAt")).isFalse();
        assertThat(record.getInt("bodyBytes")).isZero();
    }

    @Test
    void notAnEffectiveKey_400() {
        Served served = call(endpoint(), as(OPERATOR, "GET", PREFIX + "records/order-7"));

        assertProblem(served, 400, "urn:idemkit:admin-bad-request");
        assertThat(served.text()).doesNotContain("order-7");
    }

    @Test
    void delete_204_thenTheRecordIsGone_andASecondDelete404() {
        String effectiveKey = completed("order-7");
        AdminEndpoint endpoint = endpoint();
        String record = PREFIX + "records/" + effectiveKey;

        Served deleted = call(endpoint, as(OPERATOR, "DELETE", record));

        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.header("Cache-Control")).isEqualTo("no-store");
        assertThat(deleted.body()).isEmpty();
        assertThat(memory.find(effectiveKey)).isEmpty();
        assertProblem(
                call(endpoint, as(OPERATOR, "GET", record)), 404, "urn:idemkit:record-not-found");
        assertProblem(
                call(endpoint, as(OPERATOR, "DELETE", record)),
                404,
                "urn:idemkit:record-not-found");
    }

    @Test
    void readsOfABody_areAuditedAsDeletesAre_withTheCallerAndTheEffectiveKey_neverTheBody() {
        String effectiveKey = completed("order-7");
        AdminEndpoint endpoint = endpoint();
        String lookup =
                Json.createObjectBuilder()
                        .add("key", "order-7")
                        .add("scope", ScopeResolver.SINGLE_TENANT_SCOPE)
                        .add("method", "POST")
                        .add("path", PATH)
                        .add("body", true)
                        .build()
                        .toString();
        String base64 = Base64.getEncoder().encodeToString(BODY);

        try (CapturedLog log = CapturedLog.of(AdminEndpoint.class)) {
            call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey));
            call(
                    endpoint,
                    as(OPERATOR, "POST", PREFIX + "records/lookup")
                            .json(lookup.replace(",\"body\":true", "")));
            assertThat(log.messages(Level.INFO)).as("a read without the body").isEmpty();

            call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + effectiveKey + "?body=true"));
            call(endpoint, as(OPERATOR, "POST", PREFIX + "records/lookup").json(lookup));
            call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN + "?body=true"));
            call(endpoint, as(OPERATOR, "DELETE", PREFIX + "records/" + effectiveKey));

            assertThat(log.messages(Level.INFO))
                    .containsExactly(
                            "idemkit admin API: ops-admin read the body of the record "
                                    + effectiveKey,
                            "idemkit admin API: ops-admin read the body of the record "
                                    + effectiveKey,
                            "idemkit admin API: ops-admin deleted the record " + effectiveKey)
                    .noneMatch(
                            m ->
                                    m.contains("order-7")
                                            || m.contains("\"id\"")
                                            || m.contains(base64));
        }
    }

    @Test
    void purge_200_deletesWhatExpired_andKeepsWhatLives() {
        String expired = completed("old");
        clock.advance(Duration.ofMinutes(59));
        String live = completed("new");
        clock.advance(Duration.ofMinutes(2));

        Served served = call(endpoint(), as(OPERATOR, "POST", PREFIX + "purge-expired"));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.header("Content-Type")).isEqualTo("application/json");
        assertThat(served.header("Cache-Control")).isEqualTo("no-store");
        assertThat(served.json().getJsonNumber("deleted").longValue()).isEqualTo(1);
        assertThat(memory.size()).isEqualTo(1);
        assertThat(memory.find(live)).isPresent();
        assertThat(memory.find(expired)).isEmpty();
    }

    @Test
    void purgeOnAStoreThatCannotPurge_501_whileTheRestWorks() {
        AdminEndpoint endpoint = endpoint(ROLE, SpiDefaultsStore.over(memory));

        Served purge = call(endpoint, as(OPERATOR, "POST", PREFIX + "purge-expired"));

        assertProblem(purge, 501, "urn:idemkit:admin-unsupported");
        assertThat(purge.json().getString("detail"))
                .isEqualTo("The custom store cannot purge expired records on demand.");
        assertProblem(
                call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN)),
                404,
                "urn:idemkit:record-not-found");
    }

    @Test
    void storeDown_503_forEveryCallThatReachesIt_withoutEchoingTheStoresError() {
        OutageStore outage = new OutageStore(memory);
        AdminEndpoint endpoint = endpoint(ROLE, outage.store());
        String lookup = "{\"key\":\"k\",\"scope\":\"s\",\"method\":\"POST\",\"path\":\"/x\"}";
        outage.goDown();

        Served[] answers = {
            call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN)),
            call(endpoint, as(OPERATOR, "DELETE", PREFIX + "records/" + UNKNOWN)),
            call(endpoint, as(OPERATOR, "POST", PREFIX + "purge-expired")),
            call(endpoint, as(OPERATOR, "POST", PREFIX + "records/lookup").json(lookup))
        };

        for (Served served : answers) {
            assertProblem(served, 503, "urn:idemkit:storage-error");
            assertThat(served.text()).doesNotContain("10.1.2.3").doesNotContain("Exception");
        }
        // Refusals come first: they never reach the store.
        assertProblem(
                call(endpoint, as(null, "GET", PREFIX + "records/" + UNKNOWN)),
                401,
                "urn:idemkit:admin-unauthorized");
        outage.comeBack();
        assertProblem(
                call(endpoint, as(OPERATOR, "GET", PREFIX + "records/" + UNKNOWN)),
                404,
                "urn:idemkit:record-not-found");
    }

    @Test
    void wrongMethod_405_withAllow() {
        AdminEndpoint endpoint = endpoint();

        Served purgeByGet = call(endpoint, as(OPERATOR, "GET", PREFIX + "purge-expired"));
        Served recordByPost = call(endpoint, as(OPERATOR, "POST", PREFIX + "records/" + UNKNOWN));
        Served lookupByGet = call(endpoint, as(OPERATOR, "GET", PREFIX + "records/lookup"));

        assertProblem(purgeByGet, 405, "urn:idemkit:admin-method-not-allowed");
        assertThat(purgeByGet.header("Allow")).isEqualTo("POST");
        assertProblem(recordByPost, 405, "urn:idemkit:admin-method-not-allowed");
        assertThat(recordByPost.header("Allow")).isEqualTo("GET, DELETE");
        assertThat(lookupByGet.header("Allow")).isEqualTo("POST");
    }

    @Test
    void unknownAdminResource_404AdminNotFound() {
        AdminEndpoint endpoint = endpoint();

        for (String path :
                new String[] {
                    "idemkit/admin",
                    PREFIX + "records",
                    PREFIX + "records/" + UNKNOWN + "/more",
                    PREFIX + "stats"
                }) {
            assertProblem(
                    call(endpoint, as(OPERATOR, "GET", path)), 404, "urn:idemkit:admin-not-found");
        }
    }
}
