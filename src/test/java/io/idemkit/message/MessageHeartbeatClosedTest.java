package io.idemkit.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idemkit.testsupport.ClosedHeartbeat;
import io.idemkit.testsupport.TestMessages;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;

/**
 * A delivery that wins its claim after the lease heartbeat closed (an undeploy under way): the
 * heartbeat cannot start, so the claim is released at once rather than left to its lease, and the
 * bean does not run; the message is redelivered, and its redelivery is not kept waiting for a lease
 * .
 */
class MessageHeartbeatClosedTest extends MessageFixture {

    @Test
    void heartbeatClosed_deliveryFails_andItsClaimIsReleasedNotLeaked() {
        start(ClosedHeartbeat.class);
        Message message = TestMessages.message().property("IdempotencyKey", "closed-1").build();

        assertThatThrownBy(() -> orders.onMessage(message))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("heartbeat is closed");
        assertThatThrownBy(() -> orders.onMessage(message))
                .as("the redelivery claims again at once: no claim was left behind")
                .hasMessageContaining("heartbeat is closed");

        assertThat(Orders.runs).hasValue(0);
    }
}
