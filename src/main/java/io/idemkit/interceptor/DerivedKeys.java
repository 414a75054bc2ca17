package io.idemkit.interceptor;

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
 * the components of a record argument, one level down. Seen when called: an argument whose value is
 * of such a type. Neither sees everything (a String holding a UUID looks like any String): name the
 * key.
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
     * @param value an argument's value
     * @return whether it is of a type whose values change on every call: a time or a UUID
     */
    static boolean looksVolatile(Object value) {
        return value != null && isVolatileType(value.getClass());
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
