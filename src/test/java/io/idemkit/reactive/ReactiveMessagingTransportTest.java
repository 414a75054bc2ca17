package io.idemkit.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.method.MessageTransport;
import io.idemkit.method.MessageTransports;
import io.idemkit.policy.ReactiveMessagingNames;
import io.smallrye.reactive.messaging.annotations.Incomings;
import java.lang.reflect.Method;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.Outgoing;
import org.junit.jupiter.api.Test;

/** Which methods the Reactive Messaging transport receives: the forms it delivers (C17). */
class ReactiveMessagingTransportTest {

    private final ReactiveMessagingTransport transport = new ReactiveMessagingTransport();

    private boolean receives(String name, Class<?> parameter) throws NoSuchMethodException {
        return transport.receives(Forms.class, Forms.class.getMethod(name, parameter));
    }

    @Test
    void anIncomingMethodTakingAMessageAndReturningAStage_isReceived_asTheLibraryListsIt()
            throws Exception {
        assertThat(receives("consume", Message.class)).isTrue();
        assertThat(
                        MessageTransports.installed()
                                .receiving(
                                        Forms.class,
                                        Forms.class.getMethod("consume", Message.class)))
                .map(MessageTransport::name)
                .contains(ReactiveMessagingTransport.NAME);
    }

    @Test
    void aMethodReadingSeveralChannels_smallRyesIncomings_isReceived_andNamesEachChannel()
            throws Exception {
        Method method = Forms.class.getMethod("consumeBoth", Message.class);

        assertThat(receives("consumeBoth", Message.class)).isTrue();
        assertThat(ReactiveMessagingNames.incomingChannels(method)).containsExactly("a", "c");
        assertThat(
                        ReactiveMessagingNames.incomingChannels(
                                Forms.class.getMethod("consume", Message.class)))
                .containsExactly("a");
        assertThat(
                        ReactiveMessagingNames.incomingChannels(
                                Forms.class.getMethod("notIncoming", Message.class)))
                .isEmpty();
    }

    @Test
    void aProcessorTakingAMessage_andReturningOneOrAStageOfOne_isReceived() throws Exception {
        assertThat(receives("process", Message.class)).isTrue();
        assertThat(receives("processLater", Message.class)).isTrue();
    }

    @Test
    void payloadMethods_aMessageReturnedWithoutOutgoing_andMethodsWithoutIncoming_areNot()
            throws Exception {
        assertThat(receives("payload", String.class)).isFalse();
        assertThat(receives("processPayload", String.class)).isFalse();
        assertThat(receives("notAProcessor", Message.class)).isFalse();
        assertThat(receives("notIncoming", Message.class)).isFalse();
        assertThat(receives("voidForm", Message.class)).isFalse();
    }

    /** The forms of methods an application may write. */
    public static class Forms {
        @Incoming("a")
        public CompletionStage<Void> consume(Message<String> message) {
            return message.ack();
        }

        @Incomings({@Incoming("a"), @Incoming("c")})
        public CompletionStage<Void> consumeBoth(Message<String> message) {
            return message.ack();
        }

        @Incoming("a")
        @Outgoing("b")
        public Message<String> process(Message<String> message) {
            return message.withPayload("out");
        }

        @Incoming("a")
        @Outgoing("b")
        public CompletionStage<Message<String>> processLater(Message<String> message) {
            return java.util.concurrent.CompletableFuture.completedFuture(message);
        }

        @Incoming("a")
        public void payload(String payload) {}

        @Incoming("a")
        @Outgoing("b")
        public String processPayload(String payload) {
            return payload;
        }

        @Incoming("a")
        public Message<String> notAProcessor(Message<String> message) {
            return message;
        }

        public CompletionStage<Void> notIncoming(Message<String> message) {
            return message.ack();
        }

        @Incoming("a")
        public void voidForm(Message<String> message) {}
    }
}
