package io.idemkit.method;

import static org.assertj.core.api.Assertions.assertThat;

import io.idemkit.message.JmsTransport;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A message transport is a wing: the method surface asks the transports the service file lists
 * which one receives a method, and a transport it does not know (a sample here, as Kafka's would
 * be) is asked the same way, with nothing else of the library changed.
 */
class MessageTransportsTest {

    /** The sample transport's mark on a listener method, as {@code @Incoming} would be. */
    @Retention(RetentionPolicy.RUNTIME)
    @interface SampleIncoming {}

    /** A transport that receives the methods marked {@link SampleIncoming}. */
    static final class SampleTransport implements MessageTransport {
        @Override
        public String name() {
            return "sample";
        }

        @Override
        public boolean receives(Class<?> beanClass, Method method) {
            return method.isAnnotationPresent(SampleIncoming.class);
        }
    }

    /** A message-driven bean. */
    static class OrdersBean implements MessageListener {
        @Override
        public void onMessage(Message message) {}

        /** Not the listener method: another parameter type. */
        public void onMessage(String text) {}
    }

    /** A bean of the sample transport. */
    static class Orders {
        @SampleIncoming
        public void consume(String order) {}

        public void place(String order) {}
    }

    private static Method method(Class<?> type, String name, Class<?>... parameters)
            throws NoSuchMethodException {
        return type.getMethod(name, parameters);
    }

    @Test
    void theInstalledTransports_areJakartaMessagingsFromTheServiceFile() throws Exception {
        MessageTransports installed = MessageTransports.installed();

        assertThat(
                        installed.receiving(
                                OrdersBean.class,
                                method(OrdersBean.class, "onMessage", Message.class)))
                .hasValueSatisfying(t -> assertThat(t).isInstanceOf(JmsTransport.class));
        assertThat(
                        installed.receiving(
                                OrdersBean.class,
                                method(OrdersBean.class, "onMessage", String.class)))
                .isEmpty();
        assertThat(installed.receiving(Orders.class, method(Orders.class, "consume", String.class)))
                .as("no sample transport installed")
                .isEmpty();
    }

    @Test
    void aTransportTheLibraryDoesNotKnow_isAskedLikeTheBundledOne() throws Exception {
        MessageTransports transports =
                new MessageTransports(List.of(new JmsTransport(), new SampleTransport()));

        assertThat(
                        transports.receiving(
                                Orders.class, method(Orders.class, "consume", String.class)))
                .hasValueSatisfying(t -> assertThat(t.name()).isEqualTo("sample"));
        assertThat(transports.receiving(Orders.class, method(Orders.class, "place", String.class)))
                .isEmpty();
        assertThat(
                        transports.receiving(
                                OrdersBean.class,
                                method(OrdersBean.class, "onMessage", Message.class)))
                .hasValueSatisfying(t -> assertThat(t.name()).isEqualTo(JmsTransport.NAME));
    }
}
