package io.idemkit.config;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How an {@code @Idempotent} message-driven bean (contract C11) or Reactive Messaging {@code
 * Incoming} method (C17) treats its messages: which message property (or Kafka header) carries the
 * application's key, how many runs a failing message gets, whether a duplicate's body must match
 * the first one's, and, for Kafka records, whether their record key is the key.
 *
 * <p>The global values come from {@code idemkit.message.*}; a bean class or its {@code onMessage}
 * method overrides them with the per-method keys of {@link io.idemkit.policy.PerMethodConfig}
 * (merged by {@link io.idemkit.policy.MessageResolution}), for example {@code
 * com.example.OrdersBean/onMessage/Idempotent/maxAttempts=5}.
 *
 * @param keyProperty the message property holding the key; a message without it is keyed by its
 *     {@code JMSMessageID}
 * @param maxAttempts how many times the bean runs for one message that keeps failing, at least 1
 * @param fingerprintBody whether the body enters the fingerprint; without it, the key alone
 *     declares "the same operation"
 * @param keySource where the key comes from: the key property, or a Kafka record's key
 */
public record MessagePolicy(
        String keyProperty, int maxAttempts, boolean fingerprintBody, MessageKeySource keySource) {

    /** The member that names the key property. */
    public static final String KEY_PROPERTY = "keyProperty";

    /** The member that sets the most runs of a failing message. */
    public static final String MAX_ATTEMPTS = "maxAttempts";

    /** The member that says what the fingerprint covers: {@code none} or {@code body}. */
    public static final String FINGERPRINT = "messageFingerprint";

    /** The member that says where the key comes from: {@code property} or {@code record-key}. */
    public static final String KEY_SOURCE = "keySource";

    /** The members of the message surface, which per-method configuration keys can set. */
    public static final List<String> MEMBERS =
            List.of(KEY_PROPERTY, MAX_ATTEMPTS, FINGERPRINT, KEY_SOURCE);

    /**
     * The JMS selector's reserved words, which no property may be named (Jakarta Messaging
     * 3.1.4.3).
     */
    private static final Set<String> RESERVED =
            Set.of(
                    "NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS",
                    "ESCAPE");

    /** Validates the components. */
    public MessagePolicy {
        keyProperty = propertyName(keyProperty);
        Objects.requireNonNull(keySource, "keySource");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("must be 1 or more, was " + maxAttempts);
        }
    }

    /**
     * @param source where the key comes from
     * @return this policy with {@code source}
     */
    public MessagePolicy withKeySource(MessageKeySource source) {
        return new MessagePolicy(keyProperty, maxAttempts, fingerprintBody, source);
    }

    /**
     * Checks one member's text.
     *
     * @param member one of {@link #MEMBERS}
     * @param text its value
     * @throws IllegalArgumentException with the rule the value broke
     */
    public static void check(String member, String text) {
        switch (member) {
            case KEY_PROPERTY -> propertyName(text);
            case MAX_ATTEMPTS -> maxAttempts(text);
            case FINGERPRINT -> fingerprintBody(text);
            case KEY_SOURCE -> MessageKeySource.of(text);
            default -> throw new IllegalArgumentException("not a message member: " + member);
        }
    }

    /**
     * A legal name for an application's message property (Jakarta Messaging 3.1.4.3): a Java
     * identifier, none of the selector's reserved words, and not beginning with {@code JMS}, which
     * the specification keeps for its own headers and properties.
     *
     * @param text the name
     * @return the name, stripped
     * @throws IllegalArgumentException saying which rule the name breaks
     */
    public static String propertyName(String text) {
        Objects.requireNonNull(text, "keyProperty");
        String name = text.strip();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a message property name cannot be empty");
        }
        if (!Character.isJavaIdentifierStart(name.codePointAt(0))
                || !name.codePoints().allMatch(Character::isJavaIdentifierPart)) {
            throw new IllegalArgumentException(
                    "\""
                            + name
                            + "\" is not a legal message property name: it must be a Java"
                            + " identifier (letters, digits, '_' and '$', not starting with a"
                            + " digit)");
        }
        if (RESERVED.contains(name.toUpperCase(Locale.ROOT))) {
            throw new IllegalArgumentException(
                    "\""
                            + name
                            + "\" is a reserved word of message selectors, not a property name");
        }
        if (name.startsWith("JMS")) {
            throw new IllegalArgumentException(
                    "\""
                            + name
                            + "\": names beginning with JMS belong to Jakarta Messaging itself;"
                            + " a message without the key property is keyed by its JMSMessageID"
                            + " already");
        }
        return name;
    }

    /**
     * @param text a whole number
     * @return it, when 1 or more
     * @throws IllegalArgumentException otherwise
     */
    public static int maxAttempts(String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(
                "\"" + text.strip() + "\" is not a whole number of attempts, 1 or more");
    }

    /**
     * @param text {@code none} or {@code body}, in any case
     * @return whether the body enters the fingerprint
     * @throws IllegalArgumentException otherwise
     */
    public static boolean fingerprintBody(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "none" -> false;
            case "body" -> true;
            default ->
                    throw new IllegalArgumentException(
                            "\"" + text.strip() + "\" is neither none nor body");
        };
    }
}
