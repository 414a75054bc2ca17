package io.idemkit.config;

import io.idemkit.spi.StoreArguments;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration syntax of every duration key and annotation member: ISO-8601 ({@code PT30S}) or a
 * whole number with a unit, {@code ms}, {@code s}, {@code m}, {@code h} or {@code d} ({@code
 * 500ms}, {@code 30s}, {@code 24h}). A bare number is refused: its unit would be a guess.
 */
public final class DurationFormat {

    private static final Pattern SIMPLE = Pattern.compile("(-?\\d+)\\s*(ms|s|m|h|d)");

    private DurationFormat() {}

    /**
     * @param text the configured text
     * @return the duration
     * @throws IllegalArgumentException with the rule the text broke
     */
    public static Duration parse(String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(value);
        try {
            if (m.matches()) {
                long amount = Long.parseLong(m.group(1));
                return switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(amount);
                    case "s" -> Duration.ofSeconds(amount);
                    case "m" -> Duration.ofMinutes(amount);
                    case "h" -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
            }
            if (value.startsWith("p") || value.startsWith("-p")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
        } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
            // reported below, with the rule
        }
        throw new IllegalArgumentException(
                "must be a duration such as 500ms, 30s, 5m, 24h, 2d or PT30S");
    }

    /**
     * @param text the configured text
     * @return the duration, positive
     * @throws IllegalArgumentException if the text is no duration, or not a positive one
     */
    public static Duration parsePositive(String text) {
        Duration d = parse(text);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("must be positive");
        }
        return d;
    }

    /**
     * A lease or retention, within what every store can represent ({@link StoreArguments#MIN_TTL}
     * to {@link StoreArguments#MAX_TTL}), so that a value no store accepts fails the deployment
     * instead of every request.
     *
     * @param text the configured text
     * @return the duration, from 1 ms to 100 years
     * @throws IllegalArgumentException if the text is no duration, or one outside that range
     */
    public static Duration parseTtl(String text) {
        Duration d = parsePositive(text);
        if (d.compareTo(StoreArguments.MIN_TTL) < 0) {
            throw new IllegalArgumentException("must be at least 1ms");
        }
        if (d.compareTo(StoreArguments.MAX_TTL) > 0) {
            throw new IllegalArgumentException("must be at most 36525d (100 years)");
        }
        return d;
    }

    /**
     * @param text the configured text
     * @return the duration, zero or positive
     * @throws IllegalArgumentException if the text is no duration, or a negative one
     */
    public static Duration parseNotNegative(String text) {
        Duration d = parse(text);
        if (d.isNegative()) {
            throw new IllegalArgumentException("must not be negative");
        }
        return d;
    }

    /**
     * @param duration a duration
     * @return its shortest text in this syntax, for messages
     */
    public static String format(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 86_400_000 == 0 && millis != 0) {
            return millis / 86_400_000 + "d";
        }
        if (millis % 3_600_000 == 0 && millis != 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0 && millis != 0) {
            return millis / 60_000 + "m";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }
}
