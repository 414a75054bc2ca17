package io.idemkit.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.config.ConfigReader;
import io.idemkit.config.InvalidConfigurationException;
import io.idemkit.config.MessageKeySource;
import io.idemkit.config.MessageLeaseRule;
import io.idemkit.config.MessagePolicy;
import io.idemkit.config.TransactionTimeout;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.junit.jupiter.api.Test;

/** The message surface's settings (C11) and its lease rule (C11.4). */
class MessageResolutionTest {

    private static final MessagePolicy DEFAULTS =
            new MessagePolicy("IdempotencyKey", 3, false, MessageKeySource.PROPERTY);

    private static Config config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .withSources(new PropertiesConfigSource(properties, "test", 500))
                .build();
    }

    @Test
    void legalPropertyNames_areJavaIdentifiers_notReservedWords_notJmsNames() {
        assertThat(MessagePolicy.propertyName(" orderId ")).isEqualTo("orderId");
        assertThat(MessagePolicy.propertyName("_key$1")).isEqualTo("_key$1");
        assertThatThrownBy(() -> MessagePolicy.propertyName("order-id"))
                .hasMessageContaining("not a legal message property name");
        assertThatThrownBy(() -> MessagePolicy.propertyName("1key"))
                .hasMessageContaining("not a legal message property name");
        assertThatThrownBy(() -> MessagePolicy.propertyName("between"))
                .hasMessageContaining("reserved word");
        assertThatThrownBy(() -> MessagePolicy.propertyName("JMSXGroupID"))
                .hasMessageContaining("belong to Jakarta Messaging");
        assertThatThrownBy(() -> MessagePolicy.propertyName(" "))
                .hasMessageContaining("cannot be empty");
    }

    @Test
    void globalKeys_areReadAndChecked_everyProblemAtOnce() {
        assertThatThrownBy(
                        () ->
                                ConfigReader.read(
                                        config(
                                                Map.of(
                                                        "idemkit.message.key-property", "JMSType",
                                                        "idemkit.message.max-attempts", "0",
                                                        "idemkit.message.fingerprint", "yes",
                                                        "idemkit.message.transaction-timeout",
                                                                "-PT5S"))))
                .isInstanceOfSatisfying(
                        InvalidConfigurationException.class,
                        e ->
                                assertThat(e.problems())
                                        .hasSize(4)
                                        .anySatisfy(
                                                p ->
                                                        assertThat(p)
                                                                .startsWith(
                                                                        "Invalid idemkit.message.key-property=JMSType:"))
                                        .anySatisfy(
                                                p ->
                                                        assertThat(p)
                                                                .isEqualTo(
                                                                        "Invalid idemkit.message.max-attempts=0:"
                                                                                + " \"0\" is not a whole number"
                                                                                + " of attempts, 1 or more"))
                                        .anySatisfy(
                                                p ->
                                                        assertThat(p)
                                                                .isEqualTo(
                                                                        "Invalid idemkit.message.fingerprint=yes:"
                                                                                + " \"yes\" is neither none nor"
                                                                                + " body"))
                                        .anySatisfy(
                                                p ->
                                                        assertThat(p)
                                                                .startsWith(
                                                                        "Invalid idemkit.message.transaction-timeout=-PT5S:"
                                                                                + " must not be negative")));
    }

    @Test
    void perMethodKeys_winOverPerClassKeys_whichWinOverTheDefaults() {
        Config config =
                config(
                        Map.of(
                                "com.example.Orders/Idempotent/maxAttempts", "5",
                                "com.example.Orders/Idempotent/keyProperty", "classKey",
                                "com.example.Orders/onMessage/Idempotent/keyProperty",
                                        "methodKey"));

        assertThat(
                        MessageResolution.resolve(
                                ConfigLookup.of(config),
                                "com.example.Orders",
                                "onMessage",
                                DEFAULTS))
                .isEqualTo(new MessagePolicy("methodKey", 5, false, MessageKeySource.PROPERTY));
        assertThat(
                        MessageResolution.resolve(
                                ConfigLookup.of(config),
                                "com.example.Other",
                                "onMessage",
                                DEFAULTS))
                .isEqualTo(DEFAULTS);
    }

    @Test
    void aBrokenPerMethodKey_isReportedByTheValidationOfEveryPerMethodKey() {
        Config config =
                config(Map.of("com.example.Orders/onMessage/Idempotent/messageFingerprint", "all"));

        assertThat(PerMethodConfig.validate(ConfigLookup.of(config)))
                .containsExactly(
                        "Invalid com.example.Orders/onMessage/Idempotent/messageFingerprint=all:"
                                + " \"all\" is neither none nor body");
    }

    @Test
    void leaseRule_leaseAndWaitMustBeShorterThanTheTransactionTimeout() {
        TransactionTimeout timeout = TransactionTimeout.configured(Duration.ofSeconds(10));

        assertThat(
                        MessageLeaseRule.problems(
                                "Q", Duration.ofSeconds(9), Duration.ofSeconds(5), timeout))
                .isEmpty();
        assertThat(
                        MessageLeaseRule.problems(
                                "Q", Duration.ofSeconds(10), Duration.ofSeconds(5), timeout))
                .singleElement()
                .asString()
                .startsWith("The lease of Q (10s) must be shorter than the transaction timeout")
                .contains("idemkit.message.transaction-timeout=10s");
        assertThat(
                        MessageLeaseRule.problems(
                                "Q", Duration.ofSeconds(30), Duration.ofSeconds(10), timeout))
                .hasSize(2);
    }

    @Test
    void leaseRule_withoutATransactionTimeout_holdsNoLease() {
        TransactionTimeout none = TransactionTimeout.readFrom(Duration.ZERO, "Payara");

        assertThat(MessageLeaseRule.problems("Q", Duration.ofHours(1), Duration.ofHours(1), none))
                .isEmpty();
        assertThat(none.origin())
                .isEqualTo("Payara's transaction timeout, none, read from the server");
    }
}
