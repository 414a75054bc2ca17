package io.idemkit.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The records one logger (and its children) publishes while this is open, for the tests that assert
 * what the library says. {@code System.Logger} goes to {@code java.util.logging} here.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler =
            new Handler() {
                @Override
                public void publish(LogRecord record) {
                    records.add(record);
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };

    private final Level levelBefore;

    private CapturedLog(String name, Level level) {
        this.logger = Logger.getLogger(name);
        this.levelBefore = logger.getLevel();
        if (level != null) {
            logger.setLevel(level);
        }
        logger.addHandler(handler);
    }

    private CapturedLog(String name) {
        this(name, null);
    }

    /**
     * @param type a class whose logger to listen to, down to {@code FINE} ({@code System.Logger}'s
     *     {@code DEBUG}), which the logger is set to until {@link #close()}
     * @return the capture, started
     */
    public static CapturedLog withFine(Class<?> type) {
        return new CapturedLog(type.getName(), Level.FINE);
    }

    /**
     * @param name the logger's name, such as a class's or {@code io.idemkit}
     * @return the capture, started
     */
    public static CapturedLog of(String name) {
        return new CapturedLog(name);
    }

    /**
     * @param type a class whose logger to listen to
     * @return the capture, started
     */
    public static CapturedLog of(Class<?> type) {
        return of(type.getName());
    }

    /**
     * @return the WARNING records so far, in order, as text: the message, and the thrown exception
     *     if there is one ({@code message / thrown: exception}), for the tests that prove what a
     *     warning leaves out
     */
    public List<String> warnings() {
        return texts(Level.WARNING);
    }

    /**
     * @param level the level
     * @return the records at exactly that level so far, in order, as text: the message, and the
     *     thrown exception if there is one ({@code message / thrown: exception})
     */
    public List<String> texts(Level level) {
        return records.stream()
                .filter(r -> r.getLevel() == level)
                .map(
                        r ->
                                r.getMessage()
                                        + (r.getThrown() == null
                                                ? ""
                                                : " / thrown: " + r.getThrown()))
                .toList();
    }

    /**
     * @param level the level
     * @return the messages of the records at exactly that level so far, in order
     */
    public List<String> messages(Level level) {
        return records.stream()
                .filter(r -> r.getLevel() == level)
                .map(LogRecord::getMessage)
                .toList();
    }

    /** Forgets what was captured so far. */
    public void clear() {
        records.clear();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setLevel(levelBefore);
    }
}
