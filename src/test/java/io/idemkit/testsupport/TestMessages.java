package io.idemkit.testsupport;

import jakarta.jms.BytesMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.TextMessage;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * JMS messages for unit tests, as a broker would hand them to {@code onMessage}: a message id, an
 * optional body, string and int properties, and {@code JMSXDeliveryCount}. Built on {@link Proxy},
 * since {@link Message} has fifty methods and the surface reads six; any other call fails loudly.
 */
public final class TestMessages {

    private final Map<String, Object> properties = new HashMap<>();
    private String messageId = "ID:" + UUID.randomUUID();
    private String text;
    private byte[] bytes;

    private TestMessages() {}

    /**
     * @return a text message with a fresh message id and no properties
     */
    public static TestMessages message() {
        return new TestMessages();
    }

    public TestMessages id(String id) {
        this.messageId = id;
        return this;
    }

    public TestMessages property(String name, Object value) {
        properties.put(name, value);
        return this;
    }

    public TestMessages deliveryCount(int count) {
        return property("JMSXDeliveryCount", count);
    }

    public TestMessages text(String body) {
        this.text = body;
        this.bytes = null;
        return this;
    }

    public TestMessages bytes(String body) {
        this.bytes = body.getBytes(StandardCharsets.UTF_8);
        this.text = null;
        return this;
    }

    /**
     * @return the message: a {@link BytesMessage} when {@link #bytes} was set, else a {@link
     *     TextMessage}
     */
    public Message build() {
        Map<String, Object> props = Map.copyOf(properties);
        String id = messageId;
        String body = text;
        byte[] raw = bytes == null ? null : bytes.clone();
        InvocationHandler handler =
                (proxy, method, args) ->
                        switch (method.getName()) {
                            case "getJMSMessageID" -> id;
                            case "propertyExists" -> props.containsKey((String) args[0]);
                            case "getStringProperty" -> {
                                Object value = props.get((String) args[0]);
                                yield value == null ? null : value.toString();
                            }
                            case "getIntProperty" -> {
                                Object value = props.get((String) args[0]);
                                if (!(value instanceof Integer n)) {
                                    throw new MessageFormatException("not an int: " + args[0]);
                                }
                                yield n;
                            }
                            case "getText" -> body;
                            case "getBody" -> raw == null ? null : raw.clone();
                            case "toString" -> "TestMessage[" + id + "]";
                            case "hashCode" -> System.identityHashCode(proxy);
                            case "equals" -> proxy == args[0];
                            default ->
                                    throw new UnsupportedOperationException(
                                            "TestMessages does not fake " + method.getName());
                        };
        Class<?> type = raw != null ? BytesMessage.class : TextMessage.class;
        return (Message)
                Proxy.newProxyInstance(
                        TestMessages.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
