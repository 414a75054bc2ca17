package io.idemkit.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.cdi.TestConfig;
import io.idemkit.config.ConfigValues;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The {@code idemkit.client.*} keys (C14.7): defaults, reading, and every rule in the house format.
 */
class ClientSettingsTest {

    private static ConfigValues read(Map<String, String> properties) {
        try (TestConfig ignored = TestConfig.of(properties)) {
            ConfigValues values = new ConfigValues(ConfigProvider.getConfig());
            ClientSettingsReader.read(values);
            return values;
        }
    }

    @Test
    void defaults_areTheDocumentedOnes() {
        ClientSettings d = ClientSettings.defaults();

        assertThat(d.keyHeader()).isEqualTo("Idempotency-Key");
        assertThat(d.methods()).containsExactlyInAnyOrder("POST", "PATCH");
        assertThat(d.keyWithoutOperation()).isTrue();
        assertThat(d.keyLifetime()).isEqualTo(Duration.ofHours(24));
        assertThat(d.maxRetries()).isEqualTo(3);
        assertThat(d.delay()).isEqualTo(Duration.ofMillis(200));
        assertThat(d.maxDelay()).isEqualTo(Duration.ofSeconds(10));
        assertThat(d.maxDuration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(d.retryStatuses()).containsExactlyInAnyOrder(408, 423, 425, 429, 502, 503, 504);
    }

    @Test
    void everyComponent_canBeChangedFromTheDefaults_throughTheWithMethods() throws Exception {
        // The documented way to build settings in code (the class comment): a component that no
        // with-method reaches would leave callers with the canonical constructor only.
        ClientSettings d = ClientSettings.defaults();
        ClientSettings changed =
                d.withKeyHeader("X-Key")
                        .withMethods(Set.of("PUT"))
                        .withKeyWithoutOperation(false)
                        .withRetries(7, Duration.ofMillis(50), Duration.ofSeconds(2))
                        .withLimits(Duration.ofSeconds(20), Duration.ofHours(1))
                        .withRetryStatuses(Set.of(503));

        for (RecordComponent component : ClientSettings.class.getRecordComponents()) {
            Method accessor = component.getAccessor();
            assertThat(accessor.invoke(changed))
                    .as(component.getName() + ", changed through the with-methods")
                    .isNotEqualTo(accessor.invoke(d));
        }
    }

    @Test
    void everyKey_isRead() {
        try (TestConfig ignored =
                TestConfig.of(
                        Map.of(
                                ClientKeys.KEY_HEADER, "X-Key",
                                ClientKeys.METHODS, "post, put, delete",
                                ClientKeys.KEY_WITHOUT_OPERATION, "false",
                                ClientKeys.KEY_LIFETIME, "2h",
                                ClientKeys.RETRY_MAX_RETRIES, "0",
                                ClientKeys.RETRY_DELAY, "1s",
                                ClientKeys.RETRY_MAX_DELAY, "30s",
                                ClientKeys.RETRY_MAX_DURATION, "5m",
                                ClientKeys.RETRY_STATUSES, "503, 429"))) {
            ClientSettings s = ClientSettings.fromConfig();

            assertThat(s)
                    .isEqualTo(
                            ClientSettings.defaults()
                                    .withKeyHeader("X-Key")
                                    .withMethods(Set.of("POST", "PUT", "DELETE"))
                                    .withKeyWithoutOperation(false)
                                    .withRetries(0, Duration.ofSeconds(1), Duration.ofSeconds(30))
                                    .withLimits(Duration.ofMinutes(5), Duration.ofHours(2))
                                    .withRetryStatuses(Set.of(503, 429)));
        }
    }

    @Test
    void brokenKeys_areAllListed_inTheHouseFormat() {
        ConfigValues values =
                read(
                        Map.of(
                                ClientKeys.RETRY_MAX_RETRIES, "-1",
                                ClientKeys.RETRY_DELAY, "0s",
                                ClientKeys.RETRY_STATUSES, "503, abc"));

        assertThat(values.problems())
                .containsExactlyInAnyOrder(
                        "Invalid idemkit.client.retry.max-retries=-1: must be a whole number from 0 to 100",
                        "Invalid idemkit.client.retry.delay=0s: must be positive",
                        "Invalid idemkit.client.retry.statuses=503, abc: 'abc' is not a status code");
    }

    @Test
    void aFinalStatus_cannotBeListed() {
        assertThat(read(Map.of(ClientKeys.RETRY_STATUSES, "503,409")).problems())
                .singleElement()
                .asString()
                .startsWith(
                        "Invalid idemkit.client.retry.statuses=409: only 408, 423, 425, 429 and 5xx");
        assertThat(read(Map.of(ClientKeys.RETRY_STATUSES, "422")).problems()).hasSize(1);
        assertThat(read(Map.of(ClientKeys.RETRY_STATUSES, "400")).problems()).hasSize(1);
    }

    @Test
    void aSafeMethod_cannotBeKeyed() {
        assertThat(read(Map.of(ClientKeys.METHODS, "POST,GET")).problems())
                .containsExactly(
                        "Invalid idemkit.client.methods=POST,GET: GET is safe: it needs no key");
    }

    @Test
    void maxDurationAtOrPastTheKeyLifetime_isRefused() {
        assertThat(
                        read(Map.of(
                                        ClientKeys.RETRY_MAX_DURATION, "2h",
                                        ClientKeys.KEY_LIFETIME, "2h"))
                                .problems())
                .singleElement()
                .asString()
                .startsWith(
                        "Invalid idemkit.client.retry.max-duration=2h: must be less than idemkit.client.key-lifetime (2h)");
    }

    @Test
    void maxDelayBelowDelay_isRefused() {
        assertThat(
                        read(Map.of(
                                        ClientKeys.RETRY_DELAY, "5s",
                                        ClientKeys.RETRY_MAX_DELAY, "1s"))
                                .problems())
                .containsExactly(
                        "Invalid idemkit.client.retry.max-delay=1s: must be at least idemkit.client.retry.delay (5s)");
    }

    @Test
    void aBadHeaderName_isRefused() {
        assertThat(read(Map.of(ClientKeys.KEY_HEADER, "Bad Header")).problems())
                .containsExactly(
                        "Invalid idemkit.client.key-header=Bad Header: must be a header name");
    }

    @Test
    void fromConfig_throwsEveryProblemAtOnce() {
        try (TestConfig ignored =
                TestConfig.of(
                        Map.of(
                                ClientKeys.RETRY_MAX_RETRIES, "x",
                                ClientKeys.KEY_WITHOUT_OPERATION, "maybe"))) {
            assertThatThrownBy(ClientSettings::fromConfig)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("idemkit.client.retry.max-retries=x")
                    .hasMessageContaining("idemkit.client.key-without-operation=maybe");
        }
    }
}
