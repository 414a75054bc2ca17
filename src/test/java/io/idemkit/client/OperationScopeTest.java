package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.IdempotencyKeyMissingException;
import io.idemkit.testsupport.CapturedLog;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The programmatic operation scope (C14.1) and its attempts (C14.3): which requests share a key,
 * through a real Jersey client.
 */
class OperationScopeTest {

    private final ScriptedServer server = new ScriptedServer();
    private final Client client = server.client();
    private final WebTarget payments = client.target("http://h/api/payments");
    private final WebTarget shipments = client.target("http://h/api/shipments");

    @AfterEach
    void closeClient() {
        client.close();
        assertThat(IdempotentOperations.active()).isFalse();
    }

    private void post(WebTarget target) {
        target.request().post(Entity.text("x")).close();
    }

    @Test
    void twoCallsInOneOperation_getTwoKeys_alsoToTheSamePath() {
        IdempotentOperations.run(
                () -> {
                    post(payments);
                    post(payments);
                    post(shipments);
                });

        assertThat(server.keys()).doesNotContainNull().doesNotHaveDuplicates().hasSize(3);
    }

    @Test
    void everyAttempt_sendsItsRequestsWithTheKeysOfTheFirst() {
        try (OperationScope op = IdempotentOperations.open()) {
            for (int attempt = 0; attempt < 3; attempt++) {
                op.attempt(
                        () -> {
                            post(payments);
                            post(payments);
                            post(shipments);
                            return null;
                        });
            }
        }

        List<String> keys = server.keys();
        assertThat(keys.subList(3, 6)).isEqualTo(keys.subList(0, 3));
        assertThat(keys.subList(6, 9)).isEqualTo(keys.subList(0, 3));
        assertThat(keys.subList(0, 3)).doesNotHaveDuplicates();
    }

    @Test
    void anAttemptThatGetsFurther_keepsTheKeysItShares_andNumbersTheRestOnward() {
        try (OperationScope op = IdempotentOperations.open()) {
            op.attempt(
                    () -> {
                        post(payments);
                        return null;
                    });
            op.attempt(
                    () -> {
                        post(payments);
                        post(shipments);
                        return null;
                    });
        }

        List<String> keys = server.keys();
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(2)).isNotEqualTo(keys.get(0));
    }

    @Test
    void twoOperations_neverShareAKey() {
        IdempotentOperations.run(() -> post(payments));
        IdempotentOperations.run(() -> post(payments));

        assertThat(server.keys()).doesNotHaveDuplicates().hasSize(2);
    }

    @Test
    void aNestedScope_joinsTheOperation_andNumbersOnInIt() {
        try (OperationScope outer = IdempotentOperations.open()) {
            post(payments);
            try (OperationScope inner = IdempotentOperations.open()) {
                assertThat(inner.joined()).isTrue();
                post(payments);
            }
            assertThat(outer.joined()).isFalse();
        }
        IdempotentOperations.run(() -> post(payments));

        List<String> keys = server.keys();
        assertThat(keys).doesNotHaveDuplicates();
    }

    @Test
    void aNestedRetryLoop_repeatsOnlyItsOwnRequests() {
        try (OperationScope outer = IdempotentOperations.open()) {
            post(payments);
            try (OperationScope inner = IdempotentOperations.open()) {
                for (int attempt = 0; attempt < 2; attempt++) {
                    inner.attempt(
                            () -> {
                                post(payments);
                                return null;
                            });
                }
            }
            post(payments);
        }

        List<String> keys = server.keys();
        assertThat(keys.get(2)).isEqualTo(keys.get(1));
        assertThat(List.of(keys.get(0), keys.get(1), keys.get(3))).doesNotHaveDuplicates();
    }

    @Test
    void aChosenKey_givesTheSameKeysInEveryScope_asAfterARestart() {
        IdempotentOperations.run("order-42/charge", () -> post(payments));
        IdempotentOperations.run("order-42/charge", () -> post(payments));
        IdempotentOperations.run("order-43/charge", () -> post(payments));

        List<String> keys = server.keys();
        assertThat(keys.get(1)).isEqualTo(keys.get(0));
        assertThat(keys.get(2)).isNotEqualTo(keys.get(0));
    }

    @Test
    void aChosenKeyInsideAnotherOperation_beginsItsOwn_andTheSameKeyJoins() {
        try (OperationScope outer = IdempotentOperations.open("batch-1")) {
            try (OperationScope same = IdempotentOperations.open("batch-1")) {
                assertThat(same.joined()).isTrue();
            }
            try (OperationScope other = IdempotentOperations.open("order-42/charge")) {
                assertThat(other.joined()).isFalse();
                post(payments);
            }
        }
        IdempotentOperations.run("order-42/charge", () -> post(payments));

        assertThat(server.keys().get(1)).isEqualTo(server.keys().get(0));
    }

    @Test
    void aBlankChosenKey_isRefused() {
        assertThatThrownBy(() -> IdempotentOperations.open(" "))
                .isInstanceOf(IdempotencyKeyMissingException.class);
        assertThatThrownBy(() -> IdempotentOperations.open(null))
                .isInstanceOf(IdempotencyKeyMissingException.class);
    }

    @Test
    void closingOutOfOrder_keepsTheBodysResult_warns_andLeavesNothingOnTheThread() {
        try (CapturedLog log = CapturedLog.of("io.idemkit")) {
            String result;
            try (OperationScope outer = IdempotentOperations.open()) {
                IdempotentOperations.open(); // never closed: a mistake, not the body's failure
                post(payments);
                result = "charged";
            }

            assertThat(result).isEqualTo("charged");
            assertThat(IdempotentOperations.active()).isFalse();
            assertThat(log.warnings()).anyMatch(w -> w.contains("closed out of order"));
        }
    }

    @Test
    void anotherThread_seesNoOperation() throws Exception {
        try (OperationScope op = IdempotentOperations.open()) {
            Thread other = new Thread(() -> post(payments));
            other.start();
            other.join();
            post(payments);
        }
        // The other thread's request was keyed as one outside every operation: its own key.
        assertThat(server.keys()).doesNotHaveDuplicates().hasSize(2);
    }
}
