package io.idemkit.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;

/**
 * One pass over {@code idemkit.*} keys that collects every broken rule instead of stopping at the
 * first, so that one failed deployment shows them all, each in the house format ({@code Invalid
 * idemkit.lease-ttl=-5s: must be positive}). The engine's keys ({@link ConfigReader}), a store's
 * keys (read by the store's own package) and the admin keys are read through one of these. A
 * reading method returns {@code null} (or {@code false}, {@code 0}) for a broken value, which the
 * caller never uses: {@link #throwIfBroken()} comes first. Not thread-safe; one per reading.
 */
public final class ConfigValues {

    /** The keys of {@link ConfigKeys}, found once: the reading is by reflection. */
    private static final Set<String> ENGINE_KEYS = ConfigKeys.all();

    private final Config config;
    private final Set<String> knownKeys;
    private final List<String> problems = new ArrayList<>();

    /**
     * A reading that knows the keys of {@link ConfigKeys} only.
     *
     * @param config the application's MicroProfile Config
     */
    public ConfigValues(Config config) {
        this(config, Set.of());
    }

    /**
     * @param config the application's MicroProfile Config
     * @param wingKeys the keys the wings declare beyond {@link ConfigKeys} (a store's {@code
     *     idemkit.jdbc.*}), which the unknown-key check must know
     */
    public ConfigValues(Config config, Set<String> wingKeys) {
        this.config = Objects.requireNonNull(config, "config");
        if (wingKeys.isEmpty()) {
            this.knownKeys = ENGINE_KEYS;
        } else {
            Set<String> known = new TreeSet<>(ENGINE_KEYS);
            known.addAll(wingKeys);
            this.knownKeys = Collections.unmodifiableSet(known);
        }
    }

    /**
     * Reads a wing's settings on their own, where the wing starts (the deployment checked them
     * already, with everything else).
     *
     * @param config the application's MicroProfile Config
     * @param read reads the settings, recording a broken key
     * @return the settings
     * @throws InvalidConfigurationException when a key is broken
     */
    public static <T> T checked(Config config, Function<ConfigValues, T> read) {
        ConfigValues values = new ConfigValues(config);
        T settings = read.apply(values);
        values.throwIfBroken();
        return settings;
    }

    /**
     * @return every key the library reads: {@link ConfigKeys}' and the wings'
     */
    public Set<String> knownKeys() {
        return knownKeys;
    }

    /**
     * @return the configuration read
     */
    public Config config() {
        return config;
    }

    /**
     * @param key a key
     * @return its value with surrounding white space removed; empty when it is not set
     */
    public Optional<String> text(String key) {
        return config.getOptionalValue(key, String.class).map(String::strip);
    }

    /**
     * @param key a key
     * @param defaultText the value when the key is not set
     * @param parse turns the text into a value; throws {@link IllegalArgumentException} with the
     *     rule (such as {@code must be positive}) when the text breaks it
     * @return the value; {@code null} when it broke its rule (then the problem is recorded)
     */
    public <T> T value(String key, String defaultText, Function<String, T> parse) {
        String text = config.getOptionalValue(key, String.class).orElse(defaultText);
        try {
            return parse.apply(text);
        } catch (IllegalArgumentException e) {
            problems.add("Invalid " + key + "=" + text + ": " + e.getMessage());
            return null;
        }
    }

    /**
     * Applies one value to a settings object whose own checks already speak the house format,
     * recording their message if it refuses.
     *
     * @return the new settings; {@code settings} unchanged when the value was refused
     */
    public <S, T> S apply(S settings, T value, BiFunction<S, T, S> with) {
        try {
            return with.apply(settings, value);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
            return settings;
        }
    }

    /** A duration above zero ({@link DurationFormat#parsePositive}). */
    public Duration positive(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parsePositive);
    }

    /** A duration of zero or more ({@link DurationFormat#parseNotNegative}). */
    public Duration notNegative(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parseNotNegative);
    }

    /** A lease or retention ({@link DurationFormat#parseTtl}). */
    public Duration ttl(String key, String defaultText) {
        return value(key, defaultText, DurationFormat::parseTtl);
    }

    /** {@code true} or {@code false}, in any case. */
    public boolean bool(String key, String defaultText) {
        return Boolean.TRUE.equals(value(key, defaultText, ConfigValues::parseBoolean));
    }

    /** A whole number from 1 to {@code max}. */
    public int wholeNumber(String key, String defaultText, int max) {
        Integer n = value(key, defaultText, text -> positiveInt(text, max));
        return n == null ? 0 : n;
    }

    /** A whole number from 1 to {@code max}, which may be past the range of an {@code int}. */
    public long wholeNumber(String key, String defaultText, long max) {
        Long n = value(key, defaultText, text -> positiveLong(text, max));
        return n == null ? 0 : n;
    }

    /** One of {@code type}'s constants, written in lower case with dashes ({@code fail-open}). */
    public <E extends Enum<E>> E enumValue(String key, String defaultText, Class<E> type) {
        return value(
                key,
                defaultText,
                text -> {
                    String wanted = text.strip().toUpperCase(Locale.ROOT).replace('-', '_');
                    List<String> allowed = new ArrayList<>();
                    for (E constant : type.getEnumConstants()) {
                        if (constant.name().equals(wanted)) {
                            return constant;
                        }
                        allowed.add(constant.name().toLowerCase(Locale.ROOT).replace('_', '-'));
                    }
                    throw new IllegalArgumentException(
                            "must be one of " + String.join(", ", allowed));
                });
    }

    /**
     * Reads a comma-separated list, the shape of every list-valued key: white space around an item
     * is removed, blank items are skipped, and an item named twice counts once.
     *
     * @param text the key's text
     * @param item turns one item (stripped, not blank) into a value; throws {@link
     *     IllegalArgumentException} with the rule when the item breaks it
     * @return the values, in the order written; empty when the text names none
     */
    public static <T> Set<T> list(String text, Function<String, T> item) {
        Set<T> items = new LinkedHashSet<>();
        for (String raw : text.split(",", -1)) {
            if (!raw.isBlank()) {
                items.add(item.apply(raw.strip()));
            }
        }
        return items;
    }

    /**
     * Records a problem found by a rule across keys.
     *
     * @param message the problem, in the house format
     */
    public void problem(String message) {
        problems.add(Objects.requireNonNull(message, "message"));
    }

    /**
     * @return every problem recorded so far, in the order found
     */
    public List<String> problems() {
        return List.copyOf(problems);
    }

    /**
     * @throws InvalidConfigurationException listing every problem recorded, if there is one
     */
    public void throwIfBroken() {
        if (!problems.isEmpty()) {
            throw new InvalidConfigurationException(problems);
        }
    }

    private static Boolean parseBoolean(String text) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("must be true or false");
        };
    }

    private static int positiveInt(String text, int max) {
        return (int) positiveLong(text, max);
    }

    private static long positiveLong(String text, long max) {
        long n;
        try {
            n = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be a whole number from 1 to " + max);
        }
        if (n < 1 || n > max) {
            throw new IllegalArgumentException("must be a whole number from 1 to " + max);
        }
        return n;
    }
}
