package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.Idempotent;
import io.idemkit.cdi.TestDeployment;
import io.smallrye.reactive.messaging.annotations.Incomings;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.AfterDeploymentValidation;
import jakarta.enterprise.inject.spi.DefinitionException;
import jakarta.enterprise.inject.spi.Extension;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the deployment refuses about an {@code @Idempotent @Incoming} method (C17.3): a lease that
 * is not shorter than the Kafka consumer's {@code max.poll.interval.ms}, the Kafka counterpart of
 * the reference's queue-lease-shorter-than-visibility; and what it does not hold it to (the JTA
 * transaction timeout of message-driven beans).
 */
class RecordDeploymentTest {

    private final TestDeployment deployment = new TestDeployment();

    @BeforeEach
    void singleTenant() {
        deployment.set("idemkit.scope-mode", "single-tenant");
    }

    @AfterEach
    void shutDown() {
        deployment.close();
    }

    @Test
    void aLeaseNotShorterThanTheChannelsPollInterval_failsTheDeployment_beforeAnyChannelConnects() {
        deployment.set("idemkit.lease-ttl", "10s");
        deployment.set("mp.messaging.incoming.refunds.max.poll.interval.ms", "10000");
        ChannelRuntime runtime = new ChannelRuntime();
        deployment.with(runtime);

        assertThatThrownBy(() -> deployment.start(Refunds.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "The lease of "
                                + Refunds.class.getName()
                                + ".consume() (10s) must be shorter than the max.poll.interval.ms"
                                + " of its channel refunds"
                                + " (mp.messaging.incoming.refunds.max.poll.interval.ms=10000)");
        assertThat(runtime.connected).as("channels connected").isFalse();
    }

    @Test
    void aMethodReadingSeveralChannels_isHeldToEachChannelsPollInterval() {
        deployment.set("idemkit.lease-ttl", "10s");
        deployment.set("mp.messaging.incoming.refunds.max.poll.interval.ms", "60000");
        deployment.set("mp.messaging.incoming.chargebacks.max.poll.interval.ms", "10000");

        assertThatThrownBy(() -> deployment.start(BothRefunds.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("of its channel chargebacks")
                .hasMessageNotContaining("of its channel refunds");
    }

    @Test
    void anInvalidSettingOfAnIncomingMethod_failsTheDeployment_beforeAnyChannelConnects() {
        deployment.set(Refunds.class.getName() + "/consume/Idempotent/maxAttempts", "none");
        ChannelRuntime runtime = new ChannelRuntime();
        deployment.with(runtime);

        assertThatThrownBy(() -> deployment.start(Refunds.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("\"none\" is not a whole number of attempts");
        assertThat(runtime.connected).as("channels connected").isFalse();
    }

    @Test
    void theConnectorsPollInterval_countsWhenTheChannelSetsNone() {
        deployment.set("idemkit.lease-ttl", "20s");
        deployment.set("mp.messaging.incoming.refunds.connector", "liberty-kafka");
        deployment.set("mp.messaging.connector.liberty-kafka.max.poll.interval.ms", "15000");

        assertThatThrownBy(() -> deployment.start(Refunds.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining(
                        "(mp.messaging.connector.liberty-kafka.max.poll.interval.ms=15000)");
    }

    @Test
    void withoutAPollInterval_theKafkaDefaultOfFiveMinutesHoldsTheLease() {
        deployment.set("idemkit.lease-ttl", "5m");

        assertThatThrownBy(() -> deployment.start(Refunds.class))
                .isInstanceOf(DefinitionException.class)
                .hasMessageContaining("(the Kafka client's default 300000 ms)");
    }

    @Test
    void aShorterLease_deploys_andNoTransactionTimeoutIsAsked() {
        deployment.set("idemkit.lease-ttl", "9s");
        deployment.set("mp.messaging.incoming.refunds.max.poll.interval.ms", "10000");
        // A message-driven bean's rule would refuse this lease against a 5 s transaction timeout.
        deployment.set("idemkit.message.transaction-timeout", "5s");

        assertThat(deployment.start(Refunds.class).select(Refunds.class).get()).isNotNull();
    }

    /**
     * A stand-in for a Reactive Messaging runtime, which connects its channels when the deployment
     * is validated (SmallRye's extension does).
     */
    static final class ChannelRuntime implements Extension {
        volatile boolean connected;

        void connect(@Observes AfterDeploymentValidation event) {
            connected = true;
        }
    }

    /** A method reading two channels, with SmallRye's {@code @Incomings}. */
    @ApplicationScoped
    public static class BothRefunds {
        @Idempotent
        @Incomings({@Incoming("refunds"), @Incoming("chargebacks")})
        public CompletionStage<Void> consume(Message<String> refund) {
            return refund.ack();
        }
    }

    /** An {@code @Incoming} method as an application writes it. */
    @ApplicationScoped
    public static class Refunds {
        @Idempotent
        @Incoming("refunds")
        public CompletionStage<Void> consume(Message<String> refund) {
            return refund.ack();
        }
    }
}
