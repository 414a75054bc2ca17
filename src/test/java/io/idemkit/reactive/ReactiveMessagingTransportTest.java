package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.method.MessageTransports;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;
import org.junit.jupiter.api.Test;

/** Which methods the Reactive Messaging transport receives: the one form it delivers (C17). */
class ReactiveMessagingTransportTest {

    private final ReactiveMessagingTransport transport = new ReactiveMessagingTransport();

    @Test
    void anIncomingMethodTakingAMessageAndReturningAStage_isReceived() throws Exception {
        assertThat(transport.receives(Forms.class, Forms.class.getMethod("consume", Message.class)))
                .isTrue();
        assertThat(
                        MessageTransports.installed()
                                .receiving(
                                        Forms.class,
                                        Forms.class.getMethod("consume", Message.class)))
                .map(t -> t.name())
                .contains(ReactiveMessagingTransport.NAME);
    }

    @Test
    void payloadMethods_processors_andMethodsWithoutIncoming_areNot() throws Exception {
        assertThat(transport.receives(Forms.class, Forms.class.getMethod("payload", String.class)))
                .isFalse();
        assertThat(transport.receives(Forms.class, Forms.class.getMethod("process", Message.class)))
                .isFalse();
        assertThat(
                        transport.receives(
                                Forms.class, Forms.class.getMethod("notIncoming", Message.class)))
                .isFalse();
        assertThat(
                        transport.receives(
                                Forms.class, Forms.class.getMethod("voidForm", Message.class)))
                .isFalse();
    }

    /** The forms of methods an application may write. */
    public static class Forms {
        @Incoming("a")
        public CompletionStage<Void> consume(Message<String> message) {
            return message.ack();
        }

        @Incoming("a")
        public void payload(String payload) {}

        @Incoming("a")
        @Outgoing("b")
        public CompletionStage<Void> process(Message<String> message) {
            return message.ack();
        }

        public CompletionStage<Void> notIncoming(Message<String> message) {
            return message.ack();
        }

        @Incoming("a")
        public void voidForm(Message<String> message) {}
    }
}
