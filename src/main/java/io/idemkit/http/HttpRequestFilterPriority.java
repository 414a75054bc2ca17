package io.idemkit.http;

import java.util.Locale;
import org.eclipse.microprofile.config.Config;

/**
 * Where idemkit's JAX-RS request filter sits among the application's request filters ({@link
 * HttpKeys#REQUEST_FILTER_PRIORITY}, C6.10): by default {@value #LAST}, after every one of them, so
 * that no answer from the store (a replay, a 422, a 423) reaches a caller an application filter
 * would reject, whatever its priority; or a priority of the application's choice, for an
 * application that wants some of its filters to run only for requests idemkit lets through.
 */
public final class HttpRequestFilterPriority {

    /** The value that places the filter after every other request filter. */
    public static final String LAST = "last";

    private HttpRequestFilterPriority() {}

    /**
     * @param text {@value #LAST}, or a JAX-RS priority: an integer of 0 or more
     * @return the priority: {@link Integer#MAX_VALUE} for {@value #LAST}
     * @throws IllegalArgumentException for anything else
     */
    public static int parse(String text) {
        String value = text.strip();
        if (LAST.equals(value.toLowerCase(Locale.ROOT))) {
            return Integer.MAX_VALUE;
        }
        int priority;
        try {
            priority = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "must be \"" + LAST + "\" or a JAX-RS priority, an integer of 0 or more");
        }
        if (priority < 0) {
            throw new IllegalArgumentException(
                    "must be \"" + LAST + "\" or a JAX-RS priority, an integer of 0 or more");
        }
        return priority;
    }

    /**
     * Reads the setting where JAX-RS registers the filter, before CDI may be ready; a value that
     * does not parse counts as the default here, and fails the deployment where the configuration
     * is validated ({@link HttpSection}).
     *
     * @param config the application's MicroProfile Config
     * @return the priority
     */
    public static int of(Config config) {
        String text =
                config.getOptionalValue(HttpKeys.REQUEST_FILTER_PRIORITY, String.class)
                        .orElse(HttpKeys.REQUEST_FILTER_PRIORITY_DEFAULT);
        try {
            return parse(text);
        } catch (IllegalArgumentException e) {
            return Integer.MAX_VALUE;
        }
    }
}
