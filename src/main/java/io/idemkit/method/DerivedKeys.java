package io.idemkit.method;

import io.idemkit.IdempotencyIgnored;
import io.idemkit.IdempotencyKey;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Finds what makes a derived key unable to repeat (contract C7.1; the reference's §8.2): a method
 * without {@link IdempotencyKey} is keyed by all its arguments that are not {@link
 * IdempotencyIgnored}, so one that changes between retries (a timestamp, a fresh UUID, a request
 * id, a nonce) makes every retry a new operation that runs again.
 *
 * <p>Seen statically: an argument of such a type (an {@code Instant}, a {@code LocalDateTime},
 * {@code ZonedDateTime} or {@code OffsetDateTime}, a {@code Date}, a {@code Calendar}, a {@code
 * UUID}), an argument named like one (when the class was compiled with {@code -parameters}), and
 * the components of a record argument, one level down. Seen when called, as the reference's {@code
 * _looks_volatile} sees values: an argument whose value is of such a type, or text shaped like a
 * UUID or an ISO-8601 date-time (a {@code String} or {@code Object} parameter), and the same in the
 * component values of a record argument, one level down, the reach of the static scan. Elements of
 * collections and maps are not looked at: a list of ids is business data more often than not.
 * Neither check sees everything: name the key.
 */
public final class DerivedKeys {

    /** Names that end like a per-call value: {@code clientRequestId}, {@code sent_at}, ... */
    private static final Pattern VOLATILE_NAME =
            Pattern.compile(
                    "(?i)now|.*(request_?id|trace_?id|span_?id|correlation_?id|nonce|uuid"
                            + "|timestamp|created_?at|sent_?at|received_?at)");

    /**
     * Types whose values name an instant or are made fresh per call. A date ({@code LocalDate}) or
     * a time of day is business data, not one of these.
     */
    private static final List<Class<?>> VOLATILE_TYPES =
            List.of(
                    Instant.class,
                    LocalDateTime.class,
                    ZonedDateTime.class,
                    OffsetDateTime.class,
                    Date.class,
                    Calendar.class,
                    UUID.class);

    /**
     * The reference's {@code _UUID_RE}: the 8-4-4-4-12 hex form, in either case, the whole text
     * (Python's {@code $} also lets one final line feed through).
     */
    private static final Pattern UUID_TEXT =
            Pattern.compile(
                    "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\n?");

    /**
     * The reference's {@code _ISO8601_RE}, matched at the start of the text: a date, then {@code T}
     * or a space, then hours and minutes. A date alone is business data (as {@code LocalDate} is
     * above). Python's {@code \d} takes any decimal digit, as {@code \p{Nd}} does.
     */
    private static final Pattern ISO_DATE_TIME_TEXT =
            Pattern.compile("\\p{Nd}{4}-\\p{Nd}{2}-\\p{Nd}{2}[T ]\\p{Nd}{2}:\\p{Nd}{2}");

    private DerivedKeys() {}

    /**
     * @param method an {@code @Idempotent} method
     * @return whether its key is derived from its arguments: it has no {@link IdempotencyKey}
     *     parameter
     */
    public static boolean isDerived(Method method) {
        for (Parameter parameter : method.getParameters()) {
            if (parameter.isAnnotationPresent(IdempotencyKey.class)) {
                return false;
            }
        }
        return true;
    }

    /**
     * @param method a method whose key is derived
     * @return a description of every argument (or record component) that looks as if it could
     *     change between retries, empty when none does
     */
    public static List<String> volatileLooking(Method method) {
        List<String> found = new ArrayList<>();
        Parameter[] parameters = method.getParameters();
        for (int i = 0; i < parameters.length; i++) {
            Parameter parameter = parameters[i];
            if (parameter.isAnnotationPresent(IdempotencyIgnored.class)) {
                continue;
            }
            String where =
                    "parameter "
                            + i
                            + (parameter.isNamePresent() ? " (" + parameter.getName() + ")" : "");
            if (isVolatileType(parameter.getType())) {
                found.add(where + " is a " + parameter.getType().getSimpleName());
            } else if (parameter.isNamePresent()
                    && VOLATILE_NAME.matcher(parameter.getName()).matches()) {
                found.add(where + " is named like a value that changes on every call");
            } else if (parameter.getType().isRecord()) {
                for (RecordComponent component : parameter.getType().getRecordComponents()) {
                    if (isVolatileType(component.getType())
                            || VOLATILE_NAME.matcher(component.getName()).matches()) {
                        found.add(where + " has the component " + component.getName());
                    }
                }
            }
        }
        return found;
    }

    /**
     * Looks at an argument's value as the reference does before it derives a key (its §8.2). It
     * never quotes the value, which is part of the key.
     *
     * @param value an argument's value
     * @return why it looks as if it could change on every call ({@code "is a Instant"}, {@code "is
     *     text shaped like a UUID"}, {@code "has the component sentAt, text shaped like an ISO-8601
     *     date-time"}), empty when it does not
     */
    static Optional<String> volatileValue(Object value) {
        Optional<String> own = volatileScalar(value);
        if (own.isPresent() || value == null || !value.getClass().isRecord()) {
            return own.map(why -> "is " + why);
        }
        for (RecordComponent component : value.getClass().getRecordComponents()) {
            Optional<String> inside = volatileScalar(componentValue(component, value));
            if (inside.isPresent()) {
                return Optional.of(
                        "has the component " + component.getName() + ", " + inside.get());
            }
        }
        return Optional.empty();
    }

    /** A time or a UUID, typed or as text: "a Instant", "text shaped like a UUID". */
    private static Optional<String> volatileScalar(Object value) {
        if (value == null) {
            return Optional.empty();
        }
        if (isVolatileType(value.getClass())) {
            return Optional.of("a " + value.getClass().getSimpleName());
        }
        if (value instanceof CharSequence text) {
            if (UUID_TEXT.matcher(text).matches()) {
                return Optional.of("text shaped like a UUID");
            }
            if (ISO_DATE_TIME_TEXT.matcher(text).lookingAt()) {
                return Optional.of("text shaped like an ISO-8601 date-time");
            }
        }
        return Optional.empty();
    }

    /** A record component's value; {@code null} where its accessor cannot be called from here. */
    private static Object componentValue(RecordComponent component, Object record) {
        Method accessor = component.getAccessor();
        try {
            if (!accessor.canAccess(record) && !accessor.trySetAccessible()) {
                return null;
            }
            return accessor.invoke(record);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Only a warning depends on it: an accessor that cannot be called, or throws, is
            // passed over, and JSON-B reports it when it serializes the argument.
            return null;
        }
    }

    private static boolean isVolatileType(Class<?> type) {
        for (Class<?> volatileType : VOLATILE_TYPES) {
            if (volatileType.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }
}
