package io.idemkit.config;

import java.util.Locale;

/**
 * Where a message's key comes from (C11.1, C17.1): {@code idemkit.message.key-source}, or a
 * method's {@code keySource}.
 */
public enum MessageKeySource {

    /**
     * The key property (a message property of Jakarta Messaging, a header of a Kafka record) when
     * the message has it; else the message's own identity ({@code JMSMessageID}, a record's topic,
     * partition, offset and timestamp).
     */
    PROPERTY,

    /**
     * A Kafka record's key, for topics whose record key names one message (a payment id, not a
     * customer id); a record without a key falls back to {@link #PROPERTY}. Kafka records only.
     */
    RECORD_KEY;

    /**
     * @param text {@code property} or {@code record-key}, in any case
     * @return the source
     * @throws IllegalArgumentException otherwise
     */
    public static MessageKeySource of(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "property" -> PROPERTY;
            case "record-key" -> RECORD_KEY;
            default ->
                    throw new IllegalArgumentException(
                            "\"" + text.strip() + "\" is not a key source: property or record-key");
        };
    }
}
