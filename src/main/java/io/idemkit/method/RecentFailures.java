package io.idemkit.method;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last failure of each message key that this server saw, the most recent thousand, for the
 * give-up's warning and exhausted event once a message has failed its attempts (C11.3, C17.4). Each
 * failure keeps its exception's class, which the warning and the event name, and its message, which
 * only a DEBUG line shows, since an application's message may hold its data (C4.11). Thread-safe.
 */
public final class RecentFailures {

    private static final int REMEMBERED = 1_000;

    private final Map<String, Failure> failures =
            Collections.synchronizedMap(
                    new LinkedHashMap<>() {
                        private static final long serialVersionUID = 1L;

                        @Override
                        protected boolean removeEldestEntry(Map.Entry<String, Failure> eldest) {
                            return size() > REMEMBERED;
                        }
                    });

    /** Remembers {@code failure} as the last of {@code key}. */
    public void put(String key, Throwable failure) {
        failures.put(key, Failure.of(failure));
    }

    /**
     * @return the last failure of {@code key}, or {@code null} when this server saw none
     */
    public Failure get(String key) {
        return failures.get(key);
    }

    /** Forgets {@code key}: it succeeded, or was given up. */
    public void remove(String key) {
        failures.remove(key);
    }

    /**
     * One failed run.
     *
     * @param className the exception's class name
     * @param detail the class name and message, at most 500 characters of it
     */
    public record Failure(String className, String detail) {

        private static final int MAX_DETAIL_CHARS = 500;

        /** The sentence an event gives when this server did not see the last failure. */
        public static final String NOT_SEEN =
                "not seen by this server: the last attempt failed on another server, or before a"
                        + " restart";

        static Failure of(Throwable t) {
            String text = t.getClass().getName() + ": " + t.getMessage();
            return new Failure(
                    t.getClass().getName(),
                    text.length() <= MAX_DETAIL_CHARS
                            ? text
                            : text.substring(0, MAX_DETAIL_CHARS) + "...");
        }
    }
}
