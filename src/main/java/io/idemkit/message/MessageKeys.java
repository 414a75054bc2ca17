package io.idemkit.message;

import io.idemkit.config.MessagePolicy;
import io.idemkit.core.hash.LengthPrefixedSha256;
import io.idemkit.method.MethodPlan;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/**
 * What identifies one message to {@link MessageDelivery} (C11): its key (the bean's key property,
 * else its {@code JMSMessageID}) and its fingerprint (its body's, or the key alone). A warning goes
 * to the caller's {@code warnOnce(topic, text)}, so that it is said once and under the delivery's
 * name.
 */
final class MessageKeys {

    private MessageKeys() {}

    /**
     * @return the message's key: the key property, else the message id; {@code null} without either
     */
    static String keyOf(
            Message message,
            MessagePolicy policy,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce)
            throws JMSException {
        String property = message.getStringProperty(policy.keyProperty());
        if (property != null && !property.isBlank()) {
            return property;
        }
        if (property != null) {
            warnOnce.accept(
                    plan.description() + "/blank",
                    "idemkit received a message to "
                            + plan.description()
                            + " whose "
                            + policy.keyProperty()
                            + " property is blank; such messages are keyed by their JMSMessageID,"
                            + " so that a re-send of one is not recognized as a duplicate.");
        }
        String id = message.getJMSMessageID();
        return id == null || id.isBlank() ? null : id;
    }

    static String fingerprint(
            Message message,
            MessagePolicy policy,
            MethodPlan plan,
            BiConsumer<String, String> warnOnce)
            throws JMSException {
        if (!policy.fingerprintBody()) {
            return MessageDelivery.KEY_ONLY_FINGERPRINT;
        }
        byte[] body;
        if (message instanceof TextMessage text) {
            String value = text.getText();
            body = value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
        } else if (message instanceof BytesMessage bytes) {
            // getBody leaves the bean's read position alone (Jakarta Messaging 3.1).
            byte[] value = bytes.getBody(byte[].class);
            body = value == null ? new byte[0] : value;
        } else {
            warnOnce.accept(
                    plan.description() + "/body",
                    "idemkit fingerprints the bodies of text and bytes messages only; other"
                            + " messages to "
                            + plan.description()
                            + " are compared by their key alone.");
            return MessageDelivery.KEY_ONLY_FINGERPRINT;
        }
        return LengthPrefixedSha256.hex(body);
    }
}
